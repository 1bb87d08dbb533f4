import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool, { MAX_PATTERN_CHARS, MAX_TEXT_CHARS } from './tool.js';

type Result = Record<string, unknown>;
const regexTester = toolRunner(tool, run);
const call = async (input: Record<string, unknown>, mode = 'match') =>
  (await regexTester(input, mode)) as Result;
const invalid = (input: Record<string, unknown>, message: string | RegExp) =>
  expectToolError(regexTester(input, 'match'), 'INVALID_INPUT', message);

describe('regex-tester match', () => {
  it('lists global matches with named groups and numbered captures', async () => {
    const r = await call({
      pattern: '/(?<year>\\d{4})-(\\d{2})(-\\d{2})?/g',
      text: 'from 2024-05 to 2025-12-31',
    });
    expect(r).toMatchObject({
      pattern: '(?<year>\\d{4})-(\\d{2})(-\\d{2})?',
      flags: 'g',
      flagsFrom: 'literal',
      count: 2,
    });
    expect(r.matches).toEqual([
      { match: '2024-05', index: 5, end: 12, groups: { year: '2024' }, captures: ['2024', '05', null] },
      { match: '2025-12-31', index: 16, end: 26, groups: { year: '2025' }, captures: ['2025', '12', '-31'] },
    ]);
    expect(r.truncated).toBe(false);
  });

  it('agrees with String.prototype.matchAll (oracle)', async () => {
    const text = 'a1 b22 c333 ü4444 😀55555';
    const r = await call({ pattern: '(\\p{L}|\\p{Emoji_Presentation})(\\d+)', flags: 'gu', text });
    const native = [...text.matchAll(/(\p{L}|\p{Emoji_Presentation})(\d+)/gu)];
    expect(r.count).toBe(native.length);
    expect(r.matches).toEqual(
      native.map((m) => expect.objectContaining({ match: m[0], index: m.index, captures: [m[1], m[2]] })),
    );
  });

  it('without g returns only the first match (JavaScript semantics)', async () => {
    const r = await call({ pattern: '\\d+', text: 'a1b22' });
    expect(r).toMatchObject({ global: false, count: 1, matches: [{ match: '1', index: 1, groups: null }] });
  });

  it('does not loop on empty matches and steps over surrogate pairs in unicode mode', async () => {
    const r = await call({ pattern: '(?:)', flags: 'gu', text: '😀a' });
    expect((r.matches as { index: number }[]).map((m) => m.index)).toEqual([0, 2, 3]);
    const plain = await call({ pattern: 'x*', flags: 'g', text: 'axxb' });
    expect((plain.matches as { match: string }[]).map((m) => m.match)).toEqual(['', 'xx', '', '']);
  });

  it('adds capture indices with the d flag and honours sticky y', async () => {
    const r = await call({ pattern: '(b)', flags: 'd', text: 'abc' });
    expect(r.matches).toEqual([expect.objectContaining({ captureIndices: [[1, 2]] })]);
    expect((await call({ pattern: 'b', flags: 'y', text: 'abc' })).count).toBe(0);
    expect((await call({ pattern: 'a', flags: 'gy', text: 'aab' })).count).toBe(2);
  });

  it('lists at most 1000 matches but counts them all', async () => {
    const r = await call({ pattern: 'x', flags: 'g', text: 'x'.repeat(131072) });
    expect(r).toMatchObject({ count: 131072, truncated: true });
    expect(r.matches).toHaveLength(1000);
  });

  it('stops listing when the matched text passes the size budget', async () => {
    // Each match captures about 100,000 characters: the 10th would pass 1,000,000.
    const r = await call({
      pattern: '#(?=(#*y+))',
      flags: 'g',
      text: `${'#'.repeat(20)}${'y'.repeat(100000)}`,
    });
    expect(r).toMatchObject({ count: 20, truncated: true });
    expect(r.matches).toHaveLength(9);
  });

  it('handles an empty text and Unicode text', async () => {
    expect(await call({ pattern: 'a', text: '' })).toMatchObject({ count: 0, matches: [] });
    const r = await call({ pattern: 'é+', flags: 'gi', text: 'Café ÉÉ' });
    expect((r.matches as { match: string }[]).map((m) => m.match)).toEqual(['é', 'ÉÉ']);
  });
});

describe('regex-tester test, split', () => {
  it('tests', async () => {
    expect(await call({ pattern: '^\\w+@\\w+\\.\\w+$', text: 'me@example.org' }, 'test')).toMatchObject({
      matched: true,
      index: 0,
    });
    expect(await call({ pattern: '^\\d+$', text: '12a' }, 'test')).toMatchObject({
      matched: false,
      index: null,
    });
  });

  it('splits like String.prototype.split, captures included', async () => {
    const r = await call({ pattern: '\\s*(,|;)\\s*|(\\|)', text: 'a , b;c|d' }, 'split');
    expect(r.parts).toEqual('a , b;c|d'.split(/\s*(,|;)\s*|(\|)/).map((p) => p ?? null));
    expect(r.parts).toContain(null);
  });

  it('caps split parts at 1000', async () => {
    const r = await call({ pattern: '(?:)', text: 'z'.repeat(5000) }, 'split');
    expect(r).toMatchObject({ count: 1000, truncated: true });
  });
});

describe('regex-tester errors', () => {
  it('reports an invalid pattern with the engine message', async () => {
    await invalid({ pattern: '(', text: 'a' }, /^Invalid regular expression: .*Unterminated group/);
  });

  it.each([
    ['gx', "flag 'x' is not supported"],
    ['gg', "flag 'g' is repeated"],
    ['uv', 'Invalid flags'],
  ])('refuses the flags %s', async (flags, message) => {
    await invalid({ pattern: 'a', flags }, message);
  });

  it('lets a non-empty flags field replace the literal flags', async () => {
    expect(await call({ pattern: '/a/g', flags: 'i', text: 'AA' })).toMatchObject({
      flags: 'i',
      flagsFrom: 'field',
      count: 1,
    });
    expect(await call({ pattern: '/a/gi', flags: '', text: 'AA' })).toMatchObject({ flags: 'gi', count: 2 });
    // A slash-delimited text with a non-flag tail stays a bare pattern.
    expect(await call({ pattern: '/usr/bin', text: 'x/usr/bin' })).toMatchObject({
      pattern: '/usr/bin',
      count: 1,
    });
    expect(await call({ pattern: '/a/', text: 'a' })).toMatchObject({ pattern: 'a', flagsFrom: 'none' });
  });

  it('refuses an empty, missing, wrongly typed or oversize input (the schema)', async () => {
    await invalid({}, 'pattern is required');
    await invalid({ pattern: '' }, 'pattern must NOT have fewer than 1 characters');
    // Numbers are read as their text by the schema (42 is the pattern "42"); a list cannot be.
    await invalid({ pattern: [42] }, 'pattern must be string');
    await invalid({ pattern: 'a', text: ['a'] }, /^text must be string$/);
    await invalid({ pattern: 'a', flags: ['g'] }, 'flags must be string');
    await invalid({ pattern: 'a', text: 'a'.repeat(MAX_TEXT_CHARS + 1) }, 'more than 131072 characters');
    await invalid({ pattern: 'a'.repeat(MAX_PATTERN_CHARS + 1) }, 'more than 32768 characters');
  });

  it('refuses an unknown mode with UNSUPPORTED_OPTION', async () => {
    await expectToolError(
      regexTester({ pattern: 'a' }, 'search'),
      'UNSUPPORTED_OPTION',
      'match, test, replace, split',
    );
  });
});
