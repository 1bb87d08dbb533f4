import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TARGET_DEPTH } from '../../tools/structured-output-validator/json-input.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-depth.js';

/** The reference: nesting of the value JSON.parse builds (`[]` is 1, a scalar 0). */
const depthOf = (v: unknown): number =>
  typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;

const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const objects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

describe('jsonDepthExceeds', () => {
  it.each([
    ['brackets inside strings', '["[[[[", "{{{{", "]]]]}}}}"]', 1],
    ['an escaped quote does not end a string', String.raw`["\"[[[[", "x"]`, 1],
    ['an escaped backslash before a quote ends it', String.raw`["\\", [[]]]`, 3],
    ['three backslashes: escaped backslash, escaped quote', String.raw`["\\\"[[[", [1]]`, 2],
    ['\\u escapes of brackets are text', String.raw`["\u005b\u005b\u007b", {"\u005d": []}]`, 3],
    ['non-ASCII and astral characters', '["😀[é", {"ключ[": [["☃"]]}, "\u2028"]', 4],
    ['keys with brackets', '{"[[[": {"]]]": {"{": 1}}}', 3],
    ['whitespace and pretty printing', '[\n  [\n    { "a" : [ ] }\n  ]\n]', 4],
    ['a scalar', '"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["', 0],
  ])('%s', (_name, text, depth) => {
    expect(depthOf(JSON.parse(text))).toBe(depth);
    expect(jsonDepthExceeds(text, depth)).toBe(false);
    if (depth > 0) expect(jsonDepthExceeds(text, depth - 1)).toBe(true);
  });

  it(`takes exactly ${MAX_JSON_DEPTH} levels by default and refuses one more`, () => {
    for (const nest of [arrays, objects]) {
      expect(jsonDepthExceeds(nest(MAX_JSON_DEPTH))).toBe(false);
      expect(jsonDepthExceeds(nest(MAX_JSON_DEPTH + 1))).toBe(true);
    }
    expect(jsonDepthExceeds(`[${arrays(MAX_JSON_DEPTH - 1)},${arrays(MAX_JSON_DEPTH - 1)}]`)).toBe(false);
    expect(jsonDepthExceeds(`[1,{"a":[${arrays(MAX_JSON_DEPTH - 3)}]}]`)).toBe(false);
    expect(jsonDepthExceeds(`[1,{"a":[${arrays(MAX_JSON_DEPTH - 2)}]}]`)).toBe(true);
  });

  it('answers a flat 4 MB body false and a 4 MB [[[…]]] true', () => {
    const flat = JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ id: i, s: `[${i}]{"\\` })));
    expect(flat.length).toBeGreaterThan(3_000_000);
    expect(jsonDepthExceeds(flat)).toBe(false);
    const text = JSON.stringify({ a: 'x['.repeat(2_000_000) });
    expect(jsonDepthExceeds(text, 1)).toBe(false);
    expect(jsonDepthExceeds(arrays(2_000_000))).toBe(true);
  });

  it('never throws on text that is not JSON', () => {
    for (const text of ['', '"unterminated [[[[', ']]]][[[[', '\\"[[', '{"a":"\\'])
      expect(() => jsonDepthExceeds(text, 1)).not.toThrow();
    expect(jsonDepthExceeds('"unterminated [[[[', 1)).toBe(false);
  });

  it('leaves room for the deepest value a tool takes, in the deepest envelope', () => {
    // structured-output-validator's target inside {"runs":[{"input":{"target": …}}]}.
    expect(MAX_JSON_DEPTH).toBeGreaterThanOrEqual(MAX_TARGET_DEPTH + 4);
  });

  it('agrees with the depth of what JSON.parse builds, at, below and above it', () => {
    const unit = fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ', 'é', '😀', '\u2028', '\u0000');
    const leaf = fc.jsonValue({ maxDepth: 4, stringUnit: unit });
    // Wrapped in up to 40 arrays or objects (with nasty keys) to reach depths beyond the leaf's.
    const value = fc
      .tuple(
        leaf,
        fc.array(fc.option(fc.string({ unit, maxLength: 4 }), { nil: undefined }), { maxLength: 40 }),
      )
      .map(([v, wraps]) =>
        wraps.reduce<unknown>((inner, key) => (key === undefined ? [inner] : { [key]: inner }), v),
      );
    fc.assert(
      fc.property(value, fc.constantFrom(0, 1, 2), fc.integer({ min: -2, max: 2 }), (v, indent, offset) => {
        const text = JSON.stringify(v, null, indent);
        const depth = depthOf(JSON.parse(text));
        const max = Math.max(0, depth + offset);
        expect(jsonDepthExceeds(text, max)).toBe(depth > max);
      }),
      { numRuns: 2000 },
    );
  });
});
