import { describe, expect, it } from 'vitest';
import { checkInput, expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool, { MAX_LIMIT, MAX_TEXT_CHARS } from './tool.js';

const call = toolRunner(tool, run);
const count = (input: Record<string, unknown>) => call(input, 'count');

describe('token-counter limit values', () => {
  it('accepts a numeric string (query and generic c) and rejects other values with INVALID_INPUT', async () => {
    expect((await count({ text: 'hello world', limit: '10' })).remaining).toBe(8);
    // `true` is no wrong type here: the schema coerces it to 1, as the service does; a list stays wrong.
    for (const limit of [-1, 1.5, 'ten', MAX_LIMIT + 1, [5]]) {
      await expectToolError(count({ text: 'x', limit }), 'INVALID_INPUT', /^limit must be/);
    }
  });
});

describe('token-counter bad input and size bounds', () => {
  it('rejects a non-string text and an unknown mode', async () => {
    await expectToolError(count({ text: ['x'] }), 'INVALID_INPUT', 'text must be string');
    await expectToolError(count({}), 'INVALID_INPUT', 'text is required');
    await expectToolError(call({ text: 'x' }, 'decode'), 'UNSUPPORTED_OPTION', 'count, tokens');
  });

  it('counts a text at the size limit and rejects one code point more', async () => {
    const text = 'x '.repeat(MAX_TEXT_CHARS / 2);
    const r = await count({ text, limit: 100 });
    expect(r.characters).toBe(MAX_TEXT_CHARS);
    expect(r.tokens).toBeGreaterThan(100_000);
    expect(r.withinLimit).toBe(false);
    await expectToolError(
      count({ text: `${text}x` }),
      'INVALID_INPUT',
      `more than ${MAX_TEXT_CHARS} characters`,
    );
    // Code points, not UTF-16 units: as many astral characters (twice the units) pass the schema.
    expect(() => checkInput(tool, { text: '😀'.repeat(MAX_TEXT_CHARS) })).not.toThrow();
  });

  it("counts a long run of one letter (BPE's quadratic worst case)", async () => {
    const r = await count({ text: 'a'.repeat(200_000) });
    expect(r.tokens).toBe(25_000); // 'aaaaaaaa' is one o200k_base token
  });
});
