import { describe, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool, { MAX_FIELD_CHARS } from './tool.js';

/** Input the schema refuses, and the bounds only the tool can check (inside JSON values). */
const sov = toolRunner(tool, run);
const validate = (schema: unknown, target: unknown) => sov({ schema, target }, 'validate');

describe('bounds', () => {
  it('refuses a text over the size bound, and a longer string inside a JSON value', async () => {
    const long = 'x'.repeat(MAX_FIELD_CHARS + 1);
    await expectToolError(validate(true, `"${long}"`), 'INVALID_INPUT', /^target must NOT have more than/);
    await expectToolError(validate(true, [long]), 'INVALID_INPUT', /^target holds a string that is too long/);
  });

  it('refuses values nested beyond the bounds', async () => {
    const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
    await expectToolError(validate(true, deep), 'INVALID_INPUT', /target is nested too deeply/);
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200; i++) schema = { items: schema };
    await expectToolError(validate(schema, '[]'), 'INVALID_INPUT', /schema is nested too deeply/);
  });
});

describe('modes', () => {
  it('refuses an unknown mode with UNSUPPORTED_OPTION listing the modes', async () => {
    await expectToolError(
      sov({ schema: true, target: '1' }, 'strict'),
      'UNSUPPORTED_OPTION',
      /validate, lenient, schema/,
    );
  });

  it('refuses a non-object input', async () => {
    await expectToolError(sov(null as never, 'validate'), 'INVALID_INPUT', /^input must be object/);
  });
});
