import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { diff, structuredDiff } from './test-helpers.js';

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
    await expectToolError(
      diff(left, '[]', 'patch'),
      'INVALID_INPUT',
      /120000 operations, more than the 100000/,
    );
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
    await expectToolError(
      structuredDiff({ left: '1', right: '2' }, 'unified'),
      'UNSUPPORTED_OPTION',
      'summary, patch',
    );
  });

  it('refuses missing, empty, unparseable and oversized documents', async () => {
    await expectToolError(diff(undefined, '1'), 'INVALID_INPUT', /^left is required$/);
    await expectToolError(diff('1', '  '), 'INVALID_INPUT', /^right is empty/);
    await expectToolError(diff('a: [', '1'), 'INVALID_INPUT', /^left is neither valid JSON nor valid YAML/);
    // The schema bounds the characters; the tool bounds the UTF-8 bytes of multi-byte text.
    await expectToolError(
      diff('1', 'x'.repeat(524_289)),
      'INVALID_INPUT',
      /^right must NOT have more than 524288 characters/,
    );
    await expectToolError(
      diff('1', 'é'.repeat(300_000)),
      'INVALID_INPUT',
      /right is larger than 524288 bytes/,
    );
  });

  it('refuses several YAML documents and non-JSON YAML values', async () => {
    await expectToolError(diff('a: 1\n---\nb: 2\n', '1'), 'INVALID_INPUT', /2 YAML documents/);
    await expectToolError(diff('a: .inf', '1'), 'INVALID_INPUT', /Infinity at \/a/);
    await expectToolError(diff('1', 'a: 1\nb: 2\na: 3\n'), 'INVALID_INPUT', /right .* "a" appears twice/);
  });

  it('refuses YAML alias bombs and deep nesting', async () => {
    let bomb = `a: &a [${Array(9).fill('"lol"').join(',')}]\n`;
    for (const [prev, name] of ['ab', 'bc', 'cd', 'de', 'ef', 'fg', 'gh']) {
      bomb += `${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]\n`;
    }
    await expectToolError(diff(bomb, '1'), 'INVALID_INPUT', /aliases expand too much/);
    await expectToolError(
      diff(`${'['.repeat(5000)}${']'.repeat(5000)}`, '1'),
      'INVALID_INPUT',
      /nested deeper/,
    );
    await expectToolError(diff(`${'- '.repeat(5000)}x`, '1'), 'INVALID_INPUT', /nested deeper/);
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    await expectToolError(diff(deep, 1), 'INVALID_INPUT', /left is nested deeper than 100/);
  });
});
