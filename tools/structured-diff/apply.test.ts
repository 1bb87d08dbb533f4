/**
 * Apply mode against the published json-patch-tests suite (json-patch-test-suite on npm,
 * tests.json and spec_tests.json): a case with `expected` must give it, a case with `error` must
 * be refused with INVALID_INPUT, a case with neither must apply; `disabled` cases are left out.
 * Then the refusals that are ours: bounded messages, `__proto__`, amplification.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { declaredCases, expectToolError } from '../_shared/test-helpers.js';
import { MAX_RESULT_CHARS } from './apply.js';
import { structuredDiff } from './test-helpers.js';

interface SuiteCase {
  comment?: string;
  doc: unknown;
  patch: unknown;
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

const require = createRequire(import.meta.url);
const readSuite = (file: string): SuiteCase[] =>
  JSON.parse(readFileSync(require.resolve(`json-patch-test-suite/${file}`), 'utf8')) as SuiteCase[];

interface ApplyResult {
  result: unknown;
  patchFormat: string;
  formats: Record<string, string>;
  matchesTarget?: boolean;
  firstDifference?: { path: string; result?: unknown; target?: unknown };
  warnings?: string[];
}
const apply = async (input: Record<string, unknown>): Promise<ApplyResult> =>
  (await structuredDiff(input, 'apply')) as unknown as ApplyResult;
/** As a client sends them: JSON text, so a string document stays a string. */
const applyJson = (doc: unknown, patch: unknown, extra: Record<string, unknown> = {}) =>
  apply({ document: JSON.stringify(doc), patch: JSON.stringify(patch), patchFormat: 'json-patch', ...extra });

describe.each(['tests.json', 'spec_tests.json'])('json-patch-tests %s', (file) => {
  const cases = readSuite(file).filter((c) => !c.disabled);
  const label = (c: SuiteCase, i: number) => `#${i} ${c.comment ?? JSON.stringify(c.patch).slice(0, 60)}`;

  it('runs every enabled case (the count conformance.json gives)', () => {
    expect(declaredCases(import.meta.url, `json-patch-tests (${file})`)).toBe(cases.length);
  });

  it.each(cases.map((c, i) => [label(c, i), c] as const))('%s', async (_, c) => {
    if (c.error !== undefined) {
      const err = await expectToolError(applyJson(c.doc, c.patch), 'INVALID_INPUT');
      expect(err.message.length).toBeLessThanOrEqual(400);
      return;
    }
    const answer = await applyJson(c.doc, c.patch);
    if ('expected' in c) expect(answer.result).toEqual(c.expected);
    expect(answer.patchFormat).toBe('json-patch');
  });
});

describe('apply mode with a target', () => {
  it('proves a round trip, or names the first difference', async () => {
    const doc = { a: 1, list: [1, 2] };
    const patch = [
      { op: 'replace', path: '/a', value: 2 },
      { op: 'add', path: '/list/-', value: 3 },
    ];
    const ok = await applyJson(doc, patch, { target: '{"list": [1, 2, 3], "a": 2}' });
    expect(ok).toMatchObject({ result: { a: 2, list: [1, 2, 3] }, matchesTarget: true });
    expect(ok).not.toHaveProperty('firstDifference');
    const bad = await applyJson(doc, patch, { target: 'a: 2\nlist: [1, 2, 4]\n' });
    expect(bad.matchesTarget).toBe(false);
    expect(bad.firstDifference).toEqual({ path: '/list/2', result: 3, target: 4 });
    expect(bad.formats).toEqual({ document: 'json', patch: 'json', target: 'yaml' });
    const missing = await applyJson(doc, [{ op: 'remove', path: '/a' }], { target: doc });
    expect(missing.firstDifference).toEqual({ path: '/a', target: 1 });
  });

  it('reads the patch as YAML text too, and picks the format from its shape', async () => {
    const json = await apply({ document: '{"a": 1}', patch: '- op: add\n  path: /b\n  value: 2\n' });
    expect(json).toMatchObject({ result: { a: 1, b: 2 }, patchFormat: 'json-patch' });
    const merge = await apply({ document: '{"a": 1}', patch: 'a: null\nb: 2\n' });
    expect(merge).toMatchObject({ result: { b: 2 }, patchFormat: 'merge-patch' });
    // An array as a merge patch replaces the whole document (RFC 7386 section 2).
    const forced = await apply({ document: '{"a": 1}', patch: '[1]', patchFormat: 'merge-patch' });
    expect(forced).toMatchObject({ result: [1], patchFormat: 'merge-patch' });
  });

  it('applies a patch through keys named constructor and prototype as plain data', async () => {
    const doc = { constructor: { prototype: { x: 1 } }, toString: 1 };
    const answer = await applyJson(doc, [
      { op: 'replace', path: '/constructor/prototype/x', value: 2 },
      { op: 'copy', from: '/constructor/prototype', path: '/copy' },
      { op: 'move', from: '/toString', path: '/constructor/prototype/y' },
    ]);
    expect(answer.result).toEqual({ constructor: { prototype: { x: 2, y: 1 } }, copy: { x: 2 } });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('apply mode refusals', () => {
  const refuse = (doc: unknown, patch: unknown, message: string | RegExp) =>
    expectToolError(applyJson(doc, patch), 'INVALID_INPUT', message);

  it('names the operation by index and its path', async () => {
    await refuse(
      { a: 1 },
      [
        { op: 'test', path: '/a', value: 1 },
        { op: 'test', path: '/a', value: 2 },
      ],
      "patch[1] (test at '/a'): test failed",
    );
    await refuse(
      { a: 1 },
      [{ op: 'remove', path: '/b' }],
      "patch[0] (remove at '/b'): the path does not exist",
    );
    await refuse({ a: 1 }, [{ op: 'add', path: '/x/y', value: 1 }], 'the parent of the path does not exist');
    await refuse(
      [1],
      [{ op: 'add', path: '/5', value: 1 }],
      "'5' is not an index of the array (0 to 1, or -)",
    );
    await refuse([1, 2], [{ op: 'remove', path: '/01' }], 'the path does not exist');
    await refuse({ a: 1 }, [{ op: 'frob', path: '/a' }], "patch[0]: op 'frob' is not one; use one of add");
    await refuse({ a: 1 }, [{ path: '/a' }], 'patch[0]: op is missing');
    await refuse({ a: 1 }, [{ op: 'add', path: 'a', value: 1 }], "path 'a' is not a JSON Pointer");
    await refuse({ a: 1 }, [{ op: 'add', path: '/a~2', value: 1 }], 'is not a JSON Pointer');
    await refuse({ a: 1 }, [{ op: 'add', path: '/b' }], "patch[0] (add at '/b'): value is missing");
    await refuse({ a: 1 }, [{ op: 'copy', path: '/b' }], 'patch[0] (copy): from is missing');
    await refuse(
      { a: { b: 1 } },
      [{ op: 'move', from: '/a', path: '/a/c' }],
      'cannot move a value into one of its own members',
    );
    await refuse({ a: 1 }, ['add'], 'patch[0] is not an operation object');
  });

  it('never resolves a path through inherited members', async () => {
    await refuse({}, [{ op: 'test', path: '/toString', value: 1 }], 'the path does not exist');
    await refuse(
      {},
      [{ op: 'copy', from: '/constructor', path: '/c' }],
      "from '/constructor' does not exist",
    );
    await refuse(
      {},
      [{ op: 'add', path: '/constructor/prototype/polluted', value: 1 }],
      'parent of the path does not exist',
    );
    await refuse([], [{ op: 'replace', path: '/length', value: 0 }], 'the path does not exist');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses __proto__ in a path, in from, and as a key of a merge patch', async () => {
    await refuse(
      {},
      [{ op: 'add', path: '/__proto__/polluted', value: 1 }],
      'goes through __proto__, which is refused',
    );
    await refuse({ a: {} }, [{ op: 'copy', from: '/__proto__', path: '/a/b' }], 'from');
    await expectToolError(
      apply({ document: '{}', patch: '{"__proto__": {"polluted": 1}}' }),
      'INVALID_INPUT',
      'patch has a "__proto__" key',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('bounds what it echoes of a huge path', async () => {
    const err = await refuse(
      {},
      [{ op: 'remove', path: `/${'x'.repeat(200_000)}` }],
      'the path does not exist',
    );
    expect(err.message.length).toBeLessThan(300);
  });

  it('refuses copies that would blow the result up (each copy doubles it)', async () => {
    const patch: unknown[] = [{ op: 'add', path: '/a', value: 'x'.repeat(1000) }];
    for (let i = 0; i < 40; i++) patch.push({ op: 'copy', from: '', path: `/c${i}` });
    await refuse(
      {},
      patch,
      /^patch\[\d+\] \(copy at '\/c\d+'\): the result would be larger than 2097152 characters/,
    );
    // Up to the cap it applies.
    const fits = await applyJson({}, patch.slice(0, 6));
    expect(JSON.stringify(fits.result).length).toBeLessThan(MAX_RESULT_CHARS);
  });

  it('refuses a JSON Patch that is not an array, and fields of the other modes', async () => {
    await expectToolError(
      apply({ document: '{}', patch: '{"op": "add"}', patchFormat: 'json-patch' }),
      'INVALID_INPUT',
      'patch is not a JSON Patch',
    );
    await expectToolError(apply({ document: '{}' }), 'INVALID_INPUT', /^patch is required$/);
    await expectToolError(
      apply({ document: '{}', patch: '[]', left: '{}' }),
      'INVALID_INPUT',
      'left is for the diff modes; apply mode takes document (generic: a), patch (b) and target (c)',
    );
    await expectToolError(
      structuredDiff({ left: '{}', right: '{}', patch: '[]' }, 'summary'),
      'INVALID_INPUT',
      'patch is for apply mode',
    );
    await expectToolError(
      apply({ document: '{}', patch: '[]', patchFormat: 'xml' }),
      'UNSUPPORTED_OPTION',
      'auto, json-patch, merge-patch',
    );
    await expectToolError(
      apply({ document: '{}', patch: ']' }),
      'INVALID_INPUT',
      /^patch is neither valid JSON nor valid YAML/,
    );
  });

  // Its speed is the bench's business (first runs); here, that it applies them all.
  it('applies many operations on a large array', async () => {
    const doc = Array.from({ length: 50_000 }, (_, i) => i);
    const patch = Array.from({ length: 10_000 }, () => ({ op: 'remove', path: '/0' }));
    const answer = await applyJson(doc, patch);
    expect((answer.result as number[])[0]).toBe(10_000);
    expect(answer.result).toHaveLength(40_000);
  });
});
