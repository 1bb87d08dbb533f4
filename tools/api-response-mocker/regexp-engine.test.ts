import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { regExpEngine } from './regexp-engine.js';
import { mock } from './test-helpers.js';

// As the worker pool does for the whole process (src/pool/pool.ts).
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

describe('user patterns as the body check tests them', () => {
  it.each([
    ['^[A-Z]{3}-\\d{4}$', 'ABC-1234', true],
    ['^[A-Z]{3}-\\d{4}$', 'ABC-12345', false],
    ['^\\p{Lu}\\p{Ll}+$', 'Émile', true],
    ['^\\p{Lu}\\p{Ll}+$', 'émile', false],
    ['^.$', '😀', true],
    ['^😀?a$', 'a', true],
    ['^\\u{1F600}$', '😀', true],
    ['^[^x]{2}$', '😀', false],
    // Invalid with `u` only: read as the generator reads it rather than left unchecked.
    ['^\\d{3}\\-\\d{4}$', '555-1234', true],
    ['^\\d{3}\\-\\d{4}$', '555 1234', false],
  ])('%j on %j is %s, as with the u flag', (pattern, text, expected) => {
    expect(regExpEngine(pattern, 'u').test(text)).toBe(expected);
  });

  it('keys distinct patterns apart (ajv caches compiled patterns by this text)', () => {
    expect(String(regExpEngine('a+', 'u'))).toBe('/a+/u');
    expect(String(regExpEngine('b+', 'u'))).not.toBe(String(regExpEngine('a+', 'u')));
  });

  // Before: ajv's `u` regex backtracked 2^n times on "aaa…a!" (about 2 s at n = 25, each
  // extra `a` doubling it); V8's linear-time fallback only takes regexes without `u`. At
  // n = 40 a backtracking engine would run for days: the test's own timeout is the check.
  it('a backtracking pattern checks a generated string that does not match it', () => {
    expect(regExpEngine('^(a+)+$', 'u').test(`${'a'.repeat(40)}!`)).toBe(false);
  });

  it('the same through the tool: oneOf tests the string of one branch against the other', async () => {
    const schema = {
      oneOf: [
        { type: 'string', pattern: '^a{28}!$' },
        { type: 'string', pattern: '^(a+)+$' },
      ],
    };
    const r = await mock({ response: schema, route: 'GET /a' }, 'fetch');
    expect(r.response.body).toBe(`${'a'.repeat(28)}!`);
    expect(r.notes).toEqual([]);
  });
});
