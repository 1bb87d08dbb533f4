/**
 * Oracle: applying the returned RFC 6902 patch (fast-json-patch `applyPatch`, on a deep clone)
 * to left must give right, and the change list must agree with the patch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyTo, type DiffResult, diff } from './test-helpers.js';

function checkAgreement(left: unknown, right: unknown, result: DiffResult): void {
  const patch = result.patch!;
  expect(applyTo(left, patch)).toEqual(right);
  expect(result.equal).toBe(patch.length === 0);
  expect(result.stats.added + result.stats.removed + result.stats.changed).toBe(patch.length);
  if (!result.truncated) {
    expect(result.changes.map((c) => [c.op, c.path])).toEqual(patch.map((p) => [p.op, p.path]));
  }
}

async function check(left: unknown, right: unknown): Promise<void> {
  const result = await diff(JSON.stringify(left), JSON.stringify(right), 'patch');
  checkAgreement(left, right, result);
}

const CASES: [string, unknown, unknown][] = [
  ['equal objects', { a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }],
  ['scalar roots', 1, 2],
  ['root type change', { a: 1 }, [{ a: 1 }]],
  ['null root', null, { a: null }],
  ['array grows', [1, 2], [1, 2, 3, 4]],
  ['array shrinks', [1, 2, 3, 4], [1]],
  ['array emptied', [1, [2], { x: 3 }], []],
  ['insert at front', ['a', 'b', 'c'], ['z', 'a', 'b', 'c']],
  [
    'nested arrays',
    [
      [1, 2],
      [3, [4, 5]],
    ],
    [[1], [3, [4, 5, 6]], [7]],
  ],
  ['arrays of objects', [{ id: 1, v: 'a' }, { id: 2 }], [{ id: 1, v: 'b' }, { id: 2, w: true }, { id: 3 }]],
  ['nested objects', { a: { b: { c: { d: 1 } } } }, { a: { b: { c: { d: 2, e: 3 } }, f: {} } }],
  [
    'keys with / and ~',
    { 'a/b': 1, '~c': { 'd~/e': 2 }, '~1': 3 },
    { 'a/b': 2, '~c': { 'd~/e': 3 }, '~0': 3 },
  ],
  ['empty key', { '': 1, a: { '': [1] } }, { '': 2, a: { '': [1, 2] } }],
  [
    'type changes',
    { n: 1, s: 'x', b: true, z: null, o: {}, l: [] },
    { n: '1', s: 0, b: null, z: false, o: [], l: {} },
  ],
  [
    'unicode keys',
    { 名前: '太郎', ключ: [1], '🎉': { é: 1 } },
    { 名前: '花子', ключ: [1, 2], '🎉': { e: 1 } },
  ],
  ['numeric-looking keys', { 0: 'a', 10: 'b' }, { 0: 'a', 1: 'c' }],
  ['deep structure', { a: [{ b: [{ c: [1, { d: 'x' }] }] }] }, { a: [{ b: [{ c: [1, { d: 'y' }, 2] }] }] }],
];

describe('structured-diff patch oracle', () => {
  for (const [name, left, right] of CASES) {
    it(name, async () => {
      await check(left, right);
      await check(right, left);
    });
  }

  it('agrees for YAML input too', async () => {
    const left = 'server:\n  port: 80\n  hosts: [a, b]\n';
    const right = 'server:\n  port: 8080\n  hosts: [a]\n  tls: true\n';
    const result = await diff(left, right, 'patch');
    checkAgreement(
      { server: { port: 80, hosts: ['a', 'b'] } },
      { server: { port: 8080, hosts: ['a'], tls: true } },
      result,
    );
  });
});

/** Keys from a small pool (so the two sides share structure), including ones that need escaping. */
const key = fc.constantFrom('a', 'b', 'c/d', '~e', 'f~1', 'ü', '', '0', '1');
const leaf = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, 'x', ''),
  fc.integer(),
  fc.string({ maxLength: 5 }),
);
const { node } = fc.letrec((tie) => ({
  node: fc.oneof(
    { maxDepth: 4, depthSize: 'small' },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(key, tie('node'), { maxKeys: 4, noNullPrototype: true }),
  ),
}));

/** Round-trips through JSON text, as the tool sees it (drops -0, keeps only JSON). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const noProtoKey = (value: unknown): boolean => !JSON.stringify(value).includes('"__proto__"');

describe('structured-diff property: patch(left) = right', () => {
  it('for related random documents', async () => {
    await fc.assert(
      fc.asyncProperty(node, node, async (left, right) => {
        await check(asJson(left), asJson(right));
      }),
      { numRuns: 300, seed: 20240601 },
    );
  });

  it('for arbitrary JSON values', async () => {
    const json = fc.jsonValue({ maxDepth: 5 }).filter(noProtoKey);
    await fc.assert(
      fc.asyncProperty(json, json, async (left, right) => {
        await check(asJson(left), asJson(right));
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('for a document and an edited copy of it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(node, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        node,
        async (items, at, value) => {
          const left = asJson(items) as unknown[];
          const right = structuredClone(left);
          right.splice(at % (right.length + 1), 0, asJson(value));
          await check(left, right);
          await check(right, left);
        },
      ),
      { numRuns: 200, seed: 42 },
    );
  });
});
