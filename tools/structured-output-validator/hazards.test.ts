import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

const sov = toolRunner(tool, run);

type Out = { valid: boolean; errors: { path: string; keyword: string; message: string }[] };
const validate = async (schema: unknown, target: unknown) =>
  (await sov({ schema, target }, 'validate')) as Out;
const check = async (schema: unknown) => (await sov({ schema }, 'schema')) as Out;
const refusal = async (schema: unknown, target: unknown = '5') =>
  (await expectToolError(validate(schema, target), 'INVALID_INPUT')).message;

/** Definitions d0..dn-1, each applying d(i+1) twice to the same value; dn is a string. */
const doubling = (n: number) => {
  const definitions: Record<string, unknown> = { [`d${n}`]: { type: 'string' } };
  for (let i = 0; i < n; i++) {
    const next = { $ref: `#/definitions/d${i + 1}` };
    definitions[`d${i}`] = { anyOf: [next, next] };
  }
  return { definitions, $ref: '#/definitions/d0' };
};

describe('schemas ajv cannot run', () => {
  // Before: validated against {type: "object"} as if a tool had no parameters.
  it('refuses a schema of null', async () => {
    expect(await refusal('null', '{}')).toMatch(/a schema must be an object or a boolean, got null/);
    // A tool whose parameters are null still takes no arguments.
    const tool = { type: 'function', function: { name: 'now', parameters: null } };
    expect(await validate(tool, '{}')).toMatchObject({ valid: true });
  });

  // Before: "target is nested too deeply for this schema" (the target was 5), and mode
  // schema called the schema valid.
  it.each([
    [{ $ref: '#' }, '/$ref'],
    [{ allOf: [{ $ref: '#' }] }, '/allOf/0/$ref'],
    [
      {
        definitions: { a: { anyOf: [{ type: 'string' }, { $ref: '#/definitions/a' }] } },
        $ref: '#/definitions/a',
      },
      '/definitions/a/anyOf/1/$ref',
    ],
  ])('a reference cycle on the same value: %j', async (schema, path) => {
    expect(await refusal(schema)).toMatch(
      `at '${path}': this $ref leads back to a schema that applies to the same value`,
    );
    expect(await check(schema)).toMatchObject({ valid: false, errors: [{ path, keyword: '$ref' }] });
  });

  // Before: 2^17 evaluations and as many errors (26 definitions ran a worker out of memory).
  it('refs that multiply on one value', async () => {
    expect(await refusal(doubling(16))).toMatch(/apply more than 10000 subschemas to one value/);
  });

  // Before: "the schema cannot be compiled: URI malformed" at ''.
  it.each([
    [{ properties: { '\ud800': { type: 'string' } } }, '/properties/\ud800'],
    [{ patternProperties: { a: {}, '\udc00': {} } }, '/patternProperties/\udc00'],
    [{ dependencies: { '\udc00': { required: ['a'] } } }, '/dependencies/\udc00'],
  ])('a property name with a lone surrogate: %j', async (schema, path) => {
    expect(await refusal(schema, '{}')).toMatch(/property name holds a lone surrogate/);
    expect(await check(schema)).toMatchObject({ valid: false, errors: [{ path }] });
  });
});

describe('schemas that stay accepted', () => {
  it.each([
    [
      'a recursive tree',
      { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } },
      { kids: [{ kids: [] }] },
    ],
    ['a short doubling chain', doubling(8), '"x"'],
    ['then without if', '{"then": {"$ref": "#"}}', 5],
    [
      'an $id document',
      { $id: 'http://x/root', definitions: { a: { $id: '#a', type: 'string' } }, $ref: '#a' },
      '"x"',
    ],
    [
      'a reused definition',
      {
        definitions: { s: { type: 'string' } },
        allOf: Array.from({ length: 50 }, () => ({ $ref: '#/definitions/s' })),
      },
      '"x"',
    ],
  ])('%s', async (_, schema, target) => {
    expect(await validate(schema, target)).toMatchObject({ valid: true, errors: [] });
    expect(await check(schema)).toMatchObject({ valid: true });
  });
});
