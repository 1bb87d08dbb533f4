import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../shared/tool-def.js';
import { batchRequestEtagOf, contentKey, etagOf, isDeterministic, matchesEtag } from './content-key.js';

/**
 * The content address of a run (docs/api.md, "Result cache and ETags"): equal inputs in any
 * field order or JSON encoding share it; the order of keys inside a value counts (a tool's
 * answer may follow it); anything else that differs gives another.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Input = Record<string, Json>;

const json = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>;
const input = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 6 }) as fc.Arbitrary<Input>;

/** A deep copy whose objects list their keys in the order `order` gives (own data properties, `__proto__` too). */
function reordered(v: Json, order: (keys: string[]) => string[]): Json {
  if (Array.isArray(v)) return v.map((x) => reordered(x, order));
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(order(Object.keys(v)).map((k) => [k, reordered(v[k]!, order)]));
}

/** The same fields listed in the order `order` gives, their values untouched. */
function fieldsReordered(i: Input, order: (keys: string[]) => string[]): Input {
  return Object.fromEntries(order(Object.keys(i)).map((k) => [k, i[k]!]));
}

/** The canonical text written here, independent of the code under test: fields sorted, values in their own order. */
function canon(i: Input): string {
  const fields = Object.keys(i)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(i[k])}`);
  return `{${fields.join(',')}}`;
}

/** A permutation of the keys driven by a random seed (Fisher–Yates with a small LCG). */
const shuffler =
  (seed: number) =>
  (keys: string[]): string[] => {
    const out = [...keys];
    let s = seed >>> 0;
    for (let i = out.length - 1; i > 0; i--) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      const j = s % (i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };

const key = (
  i: Record<string, unknown>,
  jsonText: string[] = [],
  toolId = 'tool',
  version = 'v1',
  mode = 'default',
) => contentKey(toolId, version, mode, i, new Set(jsonText));

describe('contentKey', () => {
  it('is the same whatever the order of the named fields', () => {
    fc.assert(
      fc.property(input, fc.integer(), (i, seed) => {
        const k = key(i);
        expect(key(fieldsReordered(i, (ks) => [...ks].reverse()))).toBe(k);
        expect(key(fieldsReordered(i, shuffler(seed)))).toBe(k);
      }),
      { numRuns: 300 },
    );
  });

  it('counts the order of keys inside a value: a tool may answer in that order', () => {
    fc.assert(
      fc.property(json, fc.integer(), (v, seed) => {
        const other = reordered(v, shuffler(seed));
        const sameOrder = JSON.stringify(other) === JSON.stringify(v);
        expect(key({ sample: other }) === key({ sample: v })).toBe(sameOrder);
      }),
      { numRuns: 300 },
    );
    expect(key({ headers: { B: '1', A: '2' } })).not.toBe(key({ headers: { A: '2', B: '1' } }));
  });

  it('survives a JSON text round trip', () => {
    fc.assert(
      fc.property(input, (i) => {
        expect(key(JSON.parse(JSON.stringify(i)))).toBe(key(i));
      }),
      { numRuns: 300 },
    );
  });

  it('is the same for equivalent JSON encodings of one value', () => {
    const a = JSON.parse('{"a":"\\u0041","n":1.0}');
    const b = JSON.parse('{"n":1,"a":"A"}');
    expect(key(a)).toBe(key(b));
    expect(key(JSON.parse('{"x":[1e2,"\\/"],"y":{"z":-0.0}}'))).toBe(
      key(JSON.parse('{"y":{"z":0},"x":[100,"/"]}')),
    );
    // …and not for values that only look alike.
    expect(key(JSON.parse('{"n":"1"}'))).not.toBe(key(JSON.parse('{"n":1}')));
    expect(key(JSON.parse('{"a":"a"}'))).not.toBe(key(JSON.parse('{"a":"A"}')));
    expect(key({ a: [1, 2] })).not.toBe(key({ a: [2, 1] }));
    expect(key({ a: null })).not.toBe(key({}));
  });

  it('differs exactly when the canonical texts differ', () => {
    fc.assert(
      fc.property(input, input, (a, b) => {
        expect(key(a) === key(b)).toBe(canon(a) === canon(b));
      }),
      { numRuns: 500 },
    );
    // Near neighbours the random pairs rarely give.
    const near: Input[] = [
      {},
      { a: [] },
      { a: null },
      { a: 0 },
      { a: '' },
      { a: '0' },
      { a: false },
      { a: { '': null } },
      { a: [null] },
      { a: [[]] },
      { a: {} },
      { '': null },
      { b: null },
    ];
    const keys = new Set(near.map((v) => key(v)));
    expect(keys.size).toBe(near.length);
  });

  it('counts a jsonText field given as a value as its JSON text, and only such a field', () => {
    fc.assert(
      // A string is text already: only other values are turned into theirs.
      fc.property(
        json.filter((v) => typeof v !== 'string'),
        (v) => {
          expect(key({ sample: v }, ['sample'])).toBe(key({ sample: JSON.stringify(v) }, ['sample']));
        },
      ),
      { numRuns: 300 },
    );
    expect(key({ sample: { a: 1 } }, ['sample'])).toBe(key({ sample: '{"a":1}' }, ['sample']));
    // Other text of the same value is other text (the key does not parse).
    expect(key({ sample: { a: 1 } }, ['sample'])).not.toBe(key({ sample: '{ "a": 1 }' }, ['sample']));
    // Not declared: a value and its text are two inputs.
    expect(key({ left: { a: 1 } }, ['sample'])).not.toBe(key({ left: '{"a":1}' }, ['sample']));
    expect(key({ sample: { a: 1 } })).not.toBe(key({ sample: '{"a":1}' }));
  });

  it('keeps numbers past a double (1e400 parses to Infinity) apart from null, everywhere', () => {
    const inf = JSON.parse('{"n":1e400}').n as number;
    expect(inf).toBe(Number.POSITIVE_INFINITY);
    const keys = [
      key({ n: inf }),
      key({ n: -inf }),
      key({ n: null }),
      key({ n: 'null' }),
      key({ n: [inf] }),
      key({ n: [null] }),
      key({ n: { x: inf } }),
      key({ n: { x: null } }),
      key({ n: { x: -inf } }),
      key({ n: { y: inf } }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // A jsonText field: a value holding Infinity has no JSON text, and stays a value.
    const declared = [
      key({ n: { x: inf } }, ['n']),
      key({ n: '{"x":null}' }, ['n']),
      key({ n: inf }, ['n']),
      key({ n: 'null' }, ['n']),
      key({ n: null }, ['n']),
    ];
    expect(new Set(declared).size).toBe(declared.length - 1);
    expect(key({ n: { x: null } }, ['n'])).toBe(key({ n: '{"x":null}' }, ['n']));
    expect(key({ n: null }, ['n'])).toBe(key({ n: 'null' }, ['n']));
  });

  it('is a 43-character base64url SHA-256 and changes with the tool id, version and mode', () => {
    const k = (t: string, v: string, m: string, i: Record<string, unknown>) => contentKey(t, v, m, i);
    const base = k('cron-expression', 'abc', 'explain', { expression: '* * * * *' });
    expect(base).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(k('cron-expression', 'abc', 'explain', { expression: '* * * * *' })).toBe(base);
    expect(k('cron-expressions', 'abc', 'explain', { expression: '* * * * *' })).not.toBe(base);
    expect(k('cron-expression', 'abd', 'explain', { expression: '* * * * *' })).not.toBe(base);
    expect(k('cron-expression', 'abc', 'build', { expression: '* * * * *' })).not.toBe(base);
    expect(k('cron-expression', 'abc', 'explain', { expression: '* * * * 1' })).not.toBe(base);
  });

  it('keeps the parts apart: a separator moved between tool id and mode gives another key', () => {
    expect(contentKey('a', 'v', 'b\0c', {})).not.toBe(contentKey('a\0b', 'v', 'c', {}));
    expect(contentKey('ab', 'v', 'c', {})).not.toBe(contentKey('a', 'v', 'bc', {}));
    expect(contentKey('a', 'bv', 'c', {})).not.toBe(contentKey('ab', 'v', 'c', {}));
    expect(contentKey('a', 'v', 'm', { x: '"' })).not.toBe(contentKey('a', 'v', 'm"', { x: '' }));
  });

  it('gives distinct keys to distinct (tool id, version, mode, input) of the shapes the hub uses', () => {
    const toolId = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
    const version = fc.stringMatching(/^[A-Za-z0-9_-]{0,4}$/);
    const mode = fc.string({ maxLength: 6 }).filter((m) => !m.includes('\0'));
    const small = fc.dictionary(
      fc.string({ maxLength: 2 }),
      fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>,
      { maxKeys: 2 },
    );
    const tuple = fc.tuple(toolId, version, mode, small);
    fc.assert(
      fc.property(tuple, tuple, ([t1, v1, m1, i1], [t2, v2, m2, i2]) => {
        const same = t1 === t2 && v1 === v2 && m1 === m2 && canon(i1) === canon(i2);
        expect(contentKey(t1, v1, m1, i1) === contentKey(t2, v2, m2, i2)).toBe(same);
      }),
      { numRuns: 500 },
    );
  });
});

describe('ETags', () => {
  const k = key({ a: 1 });
  const tag = etagOf(k);

  it('etagOf gives a quoted strong ETag of the key', () => {
    expect(tag).toBe(`"${k}"`);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(tag.startsWith('W/')).toBe(false);
    expect(etagOf(key({ a: 2 }))).not.toBe(tag);
  });

  it('matchesEtag: exact, weak form, lists, arrays of header values', () => {
    expect(matchesEtag(tag, tag)).toBe(true);
    expect(matchesEtag(`W/${tag}`, tag)).toBe(true);
    expect(matchesEtag(`"other", ${tag}`, tag)).toBe(true);
    expect(matchesEtag(`  "other" ,   W/${tag}  ,"more"`, tag)).toBe(true);
    expect(matchesEtag(`"other",${tag}`, tag)).toBe(true);
    expect(matchesEtag(['"other"', tag], tag)).toBe(true);
    expect(matchesEtag(['"other"', `"x", W/${tag}`], tag)).toBe(true);
  });

  it('matchesEtag: no match for other tags, unquoted or altered forms, `*`, nothing', () => {
    expect(matchesEtag('"other"', tag)).toBe(false);
    expect(matchesEtag(k, tag)).toBe(false);
    expect(matchesEtag(`"${k}x"`, tag)).toBe(false);
    expect(matchesEtag(`"${k.slice(1)}"`, tag)).toBe(false);
    expect(matchesEtag(`${tag}x`, tag)).toBe(false);
    expect(matchesEtag('*', tag)).toBe(false);
    expect(matchesEtag(' * ', tag)).toBe(false);
    expect(matchesEtag(undefined, tag)).toBe(false);
    expect(matchesEtag('', tag)).toBe(false);
    expect(matchesEtag([], tag)).toBe(false);
    expect(matchesEtag(['"a"', '"b"'], tag)).toBe(false);
  });

  it('matchesEtag: a field over 8192 characters does not match, even when it names the tag', () => {
    const filler = (n: number) => `"${'x'.repeat(n)}"`;
    // Exactly 8192 characters still counts.
    const atBound = `${filler(8192 - tag.length - 4)}, ${tag}`;
    expect(atBound.length).toBe(8192);
    expect(matchesEtag(atBound, tag)).toBe(true);
    const over = `${filler(8192 - tag.length - 3)}, ${tag}`;
    expect(over.length).toBe(8193);
    expect(matchesEtag(over, tag)).toBe(false);
    expect(matchesEtag(`${tag}, ${filler(9000)}`, tag)).toBe(false);
    // The bound counts the joined header values.
    expect(matchesEtag([filler(5000), filler(5000), tag], tag)).toBe(false);
  });

  it('batchRequestEtagOf: same list, same tag; order and members matter', () => {
    const a = etagOf(key({ n: 1 }));
    const b = etagOf(key({ n: 2 }));
    const c = etagOf(key({ n: 3 }));
    const ab = batchRequestEtagOf([a, b]);
    expect(ab).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(batchRequestEtagOf([a, b])).toBe(ab);
    expect(batchRequestEtagOf([b, a])).not.toBe(ab);
    expect(batchRequestEtagOf([a])).not.toBe(ab);
    expect(batchRequestEtagOf([a, b, c])).not.toBe(ab);
    expect(batchRequestEtagOf([a, a])).not.toBe(batchRequestEtagOf([a]));
    expect(batchRequestEtagOf([a])).not.toBe(a);
    expect(matchesEtag(`W/${ab}`, ab)).toBe(true);
  });
});

describe('isDeterministic', () => {
  const def = (deterministic: ToolSpec['deterministic']) => ({ deterministic }) as unknown as ToolSpec;

  it('follows a boolean declaration whatever the input', () => {
    expect(isDeterministic(def(true), {})).toBe(true);
    expect(isDeterministic(def(true), { from: 'x' })).toBe(true);
    expect(isDeterministic(def(false), {})).toBe(false);
    expect(isDeterministic(def(false), { from: 'x' })).toBe(false);
  });

  it('with whenGiven: only when every listed field is given', () => {
    const cron = def({ whenGiven: ['from'] });
    expect(isDeterministic(cron, { expression: '* * * * *', from: '2024-01-01T00:00:00Z' })).toBe(true);
    expect(isDeterministic(cron, { expression: '* * * * *' })).toBe(false);
    expect(isDeterministic(cron, { expression: '* * * * *', from: undefined })).toBe(false);
    // Falsy but given values count as given.
    expect(isDeterministic(cron, { from: '' })).toBe(true);
    expect(isDeterministic(cron, { from: 0 })).toBe(true);

    const two = def({ whenGiven: ['from', 'tz'] });
    expect(isDeterministic(two, { from: 'x', tz: 'UTC' })).toBe(true);
    expect(isDeterministic(two, { from: 'x' })).toBe(false);
    expect(isDeterministic(two, { tz: 'UTC' })).toBe(false);
  });
});
