import { describe, expect, it } from 'vitest';
import run from './run.js';
import { diff, failure } from './test-helpers.js';

describe('structured-diff summary', () => {
  it('lists changes by JSON Pointer with old and new values', async () => {
    const result = await diff('{"a":1,"b":[1,2,3],"keep":true}', 'a: 2\nb: [1, 9]\nkeep: true\nnew: x\n');
    expect(result.equal).toBe(false);
    expect(result.formats).toEqual({ left: 'json', right: 'yaml' });
    expect(result.stats).toEqual({ added: 1, removed: 1, changed: 2 });
    expect(result.changes).toEqual([
      { op: 'remove', path: '/b/2', oldValue: 3 },
      { op: 'replace', path: '/b/1', oldValue: 2, newValue: 9 },
      { op: 'replace', path: '/a', oldValue: 1, newValue: 2 },
      { op: 'add', path: '/new', newValue: 'x' },
    ]);
    expect(result.truncated).toBe(false);
    expect(result).not.toHaveProperty('patch');
  });

  it('reports equal documents, whatever the syntax and key order', async () => {
    const result = await diff('{"b": [1, {"c": null}], "a": "x"}', 'a: x\nb:\n  - 1\n  - c: null\n');
    expect(result).toMatchObject({ equal: true, changes: [], stats: { added: 0, removed: 0, changed: 0 } });
  });

  it('escapes "~" and "/" in paths (RFC 6901)', async () => {
    const result = await diff({ 'a/b': { '~c': 1 } }, { 'a/b': { '~c': 2 } });
    expect(result.changes).toEqual([{ op: 'replace', path: '/a~1b/~0c', oldValue: 1, newValue: 2 }]);
  });

  it('replaces the whole document when the root type changes', async () => {
    expect((await diff('1', '"1"')).changes).toEqual([
      { op: 'replace', path: '', oldValue: 1, newValue: '1' },
    ]);
    expect((await diff({ a: 1 }, [1])).changes).toEqual([
      { op: 'replace', path: '', oldValue: { a: 1 }, newValue: [1] },
    ]);
    expect((await diff('null', 'null')).equal).toBe(true);
  });

  it('replaces a value whose type changes, without descending', async () => {
    const result = await diff({ v: [1, 2] }, { v: { 0: 1, 1: 2 } });
    expect(result.changes).toEqual([
      { op: 'replace', path: '/v', oldValue: [1, 2], newValue: { 0: 1, 1: 2 } },
    ]);
  });

  it('compares arrays index by index', async () => {
    const result = await diff([1, 2, 3], [0, 1, 2, 3]);
    expect(result.stats).toEqual({ added: 1, removed: 0, changed: 3 });
    expect(result.changes.at(-1)).toEqual({ op: 'add', path: '/3', newValue: 3 });
  });

  it('handles Unicode keys and values', async () => {
    const result = await diff('{"名前": "太郎", "emoji": "🎉"}', '名前: 花子\nemoji: 🎉\n');
    expect(result.changes).toEqual([{ op: 'replace', path: '/名前', oldValue: '太郎', newValue: '花子' }]);
  });

  it('accepts JSON values as well as text, but a string is always parsed', async () => {
    expect((await diff({ a: 1 }, '{"a": 1}')).formats).toEqual({ left: 'value', right: 'json' });
    expect((await diff('hello', '"hello"')).equal).toBe(true);
  });

  it('truncates the change list but keeps counting', async () => {
    const left = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i]));
    const right = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, -i - 1]));
    const result = await diff(JSON.stringify(left), JSON.stringify(right), 'patch');
    expect(result.truncated).toBe(true);
    expect(result.changes).toHaveLength(1000);
    expect(result.stats.changed).toBe(1500);
    expect(result.patch).toHaveLength(1500);
  });

  it('refuses patch mode rather than return part of a patch', async () => {
    const left = JSON.stringify(new Array(120_000).fill(0));
    const err = await failure(diff(left, '[]', 'patch'));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/120000 operations, more than the 100000/);
    const summary = await diff(left, '[]');
    expect(summary).toMatchObject({ truncated: true, stats: { added: 0, removed: 120_000, changed: 0 } });
    expect(summary.changes[0]).toEqual({ op: 'remove', path: '/119999', oldValue: 0 });
  });

  it('works near the size limit', async () => {
    const rows = Array.from({ length: 6000 }, (_, i) => ({ id: i, name: `user-${i}`, tags: ['a', 'b'] }));
    const left = JSON.stringify(rows);
    expect(Buffer.byteLength(left)).toBeGreaterThan(250_000);
    rows[5000]!.name = 'changed';
    const result = await diff(left, JSON.stringify(rows));
    expect(result.changes).toEqual([
      { op: 'replace', path: '/5000/name', oldValue: 'user-5000', newValue: 'changed' },
    ]);
  });
});

describe('structured-diff input errors', () => {
  it('refuses an unknown mode', async () => {
    const err = await failure(Promise.resolve().then(() => run({ left: '1', right: '2' }, 'unified')));
    expect(err.code).toBe('UNSUPPORTED_OPTION');
    expect(err.message).toContain('summary, patch');
  });

  it('refuses missing, empty, unparseable and oversized documents', async () => {
    expect((await failure(diff(undefined, '1'))).message).toBe('left is required');
    expect((await failure(diff('1', '  '))).message).toMatch(/^right is empty/);
    const bad = await failure(diff('a: [', '1'));
    expect(bad.code).toBe('INVALID_INPUT');
    expect(bad.message).toMatch(/^left is neither valid JSON nor valid YAML/);
    expect((await failure(diff('1', 'x'.repeat(524_289)))).message).toMatch(/right is larger than/);
  });

  it('refuses several YAML documents and non-JSON YAML values', async () => {
    expect((await failure(diff('a: 1\n---\nb: 2\n', '1'))).message).toMatch(/2 YAML documents/);
    expect((await failure(diff('a: .inf', '1'))).message).toMatch(/Infinity at \/a/);
    expect((await failure(diff('1', 'a: 1\nb: 2\na: 3\n'))).message).toMatch(/right .* "a" appears twice/);
  });

  it('refuses YAML alias bombs and deep nesting', async () => {
    let bomb = `a: &a [${Array(9).fill('"lol"').join(',')}]\n`;
    for (const [prev, name] of ['ab', 'bc', 'cd', 'de', 'ef', 'fg', 'gh']) {
      bomb += `${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]\n`;
    }
    expect((await failure(diff(bomb, '1'))).message).toMatch(/aliases expand too much/);
    expect((await failure(diff(`${'['.repeat(5000)}${']'.repeat(5000)}`, '1'))).message).toMatch(
      /nested deeper/,
    );
    expect((await failure(diff(`${'- '.repeat(5000)}x`, '1'))).message).toMatch(/nested deeper/);
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    expect((await failure(diff(deep, 1))).message).toMatch(/left is nested deeper than 100/);
  });
});
