/** Inputs a careless diff gets wrong: prototype-named keys, numbers a double cannot hold, slow YAML. */
import jsonpatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { diff } from './test-helpers.js';

describe('structured-diff with hostile keys', () => {
  it('diffs keys named constructor and prototype as plain data (was an internal error)', async () => {
    const left = { constructor: { prototype: { x: 1, gone: true } }, toString: 1 };
    const right = { constructor: { prototype: { x: 2 } }, toString: 2 };
    const result = await diff(JSON.stringify(left), JSON.stringify(right), 'patch');
    expect(result.changes).toEqual([
      { op: 'replace', path: '/toString', oldValue: 1, newValue: 2 },
      { op: 'remove', path: '/constructor/prototype/gone', oldValue: true },
      { op: 'replace', path: '/constructor/prototype/x', oldValue: 1, newValue: 2 },
    ]);
    // The patch is plain RFC 6902; fast-json-patch applies it once its prototype guard is off.
    const applied = jsonpatch.applyPatch(
      jsonpatch.deepClone(left),
      result.patch as jsonpatch.Operation[],
      true,
      true,
      false,
    ).newDocument;
    expect(applied).toEqual(right);
  });
});

describe('structured-diff with numbers a double cannot hold', () => {
  it('warns that big integers and long decimals compare as the nearest double', async () => {
    const result = await diff(
      '{"id": 12345678901234567890, "x": 0.1}',
      'id: 12345678901234567891\nx: 0.10000000000000001\n',
    );
    expect(result.equal).toBe(true); // the same doubles: the diff cannot tell them apart...
    const warnings = (result as { warnings?: string[] }).warnings ?? [];
    // ...so it says so, naming the numbers as written.
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /^left has numbers a 64-bit float cannot hold exactly \(12345678901234567890\)/,
    );
    expect(warnings[1]).toMatch(/^right .*\(12345678901234567891, 0\.10000000000000001\)/);
  });

  it('does not warn for numbers written differently but held exactly', async () => {
    const result = await diff(
      '[1.0, 1e2, -0, 0.5, 9007199254740991, 1.5E-7, "12345678901234567890"]',
      '[1, 100, 0]',
    );
    expect(result).not.toHaveProperty('warnings');
  });

  it('refuses a number past the float range with a message that says why', async () => {
    const err = await expectToolError(diff('{"x": 1e400}', '{}'), 'INVALID_INPUT');
    expect(err.message).toBe('left has Infinity at /x: numbers must fit a 64-bit float (at most ~1.8e308)');
  });
});

describe('structured-diff on large text that is neither JSON nor YAML', () => {
  // The YAML reader used to collect every error (seconds to minutes); now it stops at the first.
  it('refuses it, naming the first error', async () => {
    const message = /^left is neither valid JSON nor valid YAML: .* at line 1, column \d+$/;
    await expectToolError(diff('"'.repeat(400_000), '1'), 'INVALID_INPUT', message);
  });
});
