import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { declaredCases, expectToolError, specOf, toolRunner } from '../_shared/test-helpers.js';
import {
  type Analysis,
  analyzePattern,
  MAX_ANALYZE_PATTERN_CHARS,
  MAX_ATTACK_STRING_CHARS,
} from './analyze.js';
import { countSteps, parse, pumped, StepCap } from './backtrack-oracle/test-helpers.js';
import run, { ANALYZE_BUDGET_MS } from './run.js';
import tool from './tool.js';

type Result = Record<string, unknown>;
const regexTester = toolRunner(tool, run);
const analyze = async (input: Record<string, unknown>) => (await regexTester(input, 'analyze')) as Result;

/** The vectors are checked with a roomy budget: the 400 ms of a run is tested apart, below. */
const ROOMY = { timeoutMs: 20_000 };

type Vector = [source: string, flags: string, want: 'exponential' | 'polynomial', origin: string];

/** Published ReDoS patterns (their own sources say vulnerable; the class is theirs too where given). */
const VULNERABLE: Vector[] = [
  // OWASP, "Regular expression Denial of Service - ReDoS": the "evil regexes", anchored as in its ^(a+)+$ example.
  ['^(a+)+$', '', 'exponential', 'OWASP'],
  ['^([a-zA-Z]+)*$', '', 'exponential', 'OWASP'],
  ['^(a|aa)+$', '', 'exponential', 'OWASP'],
  ['^(a|a?)+$', '', 'exponential', 'OWASP'],
  ['^(.*a){11}$', '', 'polynomial', 'OWASP: (.*a){x} for x > 10'],
  // OWASP's real-world examples (regexlib): Java class name, person name, e-mail.
  ['^(([a-z])+.)+[A-Z]([a-z])+$', '', 'exponential', 'OWASP: Java classname'],
  ["^[a-zA-Z]+(([\\'\\,\\.\\-][a-zA-Z ])?[a-zA-Z]*)*$", '', 'exponential', 'OWASP: person name'],
  [
    '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
    '',
    'exponential',
    'OWASP: e-mail validation',
  ],
  // The classics of the literature (issue 25's list; (x+x+)+y is safe-regex's test vector).
  ['(a|aa)+$', '', 'exponential', 'classic'],
  ['^(\\w+\\s?)*$', '', 'exponential', 'classic'],
  ['(x+x+)+y', '', 'exponential', 'safe-regex test suite'],
  // CVE patterns, transcribed from the vulnerable releases of the packages named.
  [
    '^((?:\\d+)?\\.?\\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|years?|yrs?|y)?$',
    'i',
    'polynomial',
    'CVE-2015-8315 (ms)',
  ],
  [' *, *', '', 'polynomial', 'CVE-2017-16119 (fresh)'],
  ['^(?:\\r\\n|\\n|\\r)+|(?:\\r\\n|\\n|\\r)+$', 'g', 'exponential', 'CVE-2021-23425 (trim-off-newlines)'],
  [
    '[\\u001B\\u009B][[\\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\\d\\/#&.:=?%@~_]+)*|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/#&.:=?%@~_]*)*)?\\u0007)|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TZcf-ntqry=><~]))',
    'g',
    'polynomial',
    'CVE-2021-3807 (ansi-regex)',
  ],
  [
    "[0-9]*['a-z\\u00A0-\\u05FF\\u0700-\\uD7FF\\uFF07\\uFF10-\\uFFEF]+|[\\u0600-\\u06FF\\/]+(\\s*?[\\u0600-\\u06FF]+){1,2}",
    'i',
    'polynomial',
    'CVE-2017-18214 (moment)',
  ],
  [
    '^(\\/?|)([\\s\\S]*?)((?:\\.{1,2}|[^\\/]+?|)(\\.[^.\\/]*|))(?:[\\/]*)$',
    '',
    'polynomial',
    'CVE-2021-23343 (path-parse)',
  ],
];

/** Deterministic patterns (each character has one way through): linear for any backtracker. */
const SAFE: [string, string][] = [
  ['^a+$', ''],
  ['^[a-zA-Z]+$', ''],
  ['^\\d+$', ''],
  ['^\\d{4}-\\d{2}-\\d{2}$', ''],
  ['^(?:[01]\\d|2[0-3]):[0-5]\\d$', ''],
  ['^#?[0-9a-fA-F]{6}$', ''],
  ['^[^\\s@]+@[^\\s@]+$', ''],
  ['\\bOakland\\b', ''],
  ['\\b(Oakland|San Francisco)\\b', 'i'],
  ['^(?:a|b)*c$', ''],
  ['^[a-z]+(?:-[a-z]+)*$', ''],
];

const STEP_CAP = 2_000_000;

/** Steps at `times` repetitions of the pumps, or Infinity past the cap. */
function steps(
  vector: { source: string; flags: string },
  a: NonNullable<Analysis['attack']>,
  times: number,
): number {
  try {
    return countSteps(parse(vector.source, vector.flags), pumped(a.pumps, a.suffix, times), STEP_CAP).steps;
  } catch (err) {
    if (err instanceof StepCap) return Number.POSITIVE_INFINITY;
    throw err;
  }
}

/**
 * How the independent matcher's step count grows on the attack's shape: log2 of
 * steps(2n) / steps(n) for n = 1, 2, 4 … 32 repetitions of the pumps, until the step cap.
 * About 1 for a linear search and d for degree d; an exponential one passes the cap within
 * 64 repetitions, where a quadratic one stays in the thousands of steps. When steps(2n)
 * passes the cap, log2(cap / steps(n)) is a lower bound of that exponent.
 */
function growth(vector: { source: string; flags: string }, a: NonNullable<Analysis['attack']>) {
  const exponents: number[] = [];
  let prev = steps(vector, a, 1);
  for (let n = 1; n < 64; n *= 2) {
    const next = steps(vector, a, 2 * n);
    // Past the cap, the cap itself bounds the exponent from below.
    if (!Number.isFinite(next))
      return { max: Math.max(...exponents, Math.log2(STEP_CAP / prev)), capped: true };
    exponents.push(Math.log2(next / prev));
    prev = next;
  }
  return { max: Math.max(...exponents), capped: false };
}

describe('regex-tester analyze: published vulnerable patterns', () => {
  const seen = { vectors: 0, oracle: 0 };
  it.each(VULNERABLE)('%s (%s) is %s [%s]', (source, flags, want) => {
    seen.vectors++;
    expect(() => new RegExp(source, flags)).not.toThrow();
    const r = analyzePattern(source, flags, ROOMY);
    expect(r.status, JSON.stringify(r.reason)).toBe('vulnerable');
    expect(r.complexity?.type).toBe(want);
    const a = r.attack!;
    expect(a.length).toBeGreaterThan(0);
    if (a.string !== null) expect(a.string.length).toBe(a.length);
    // The independent backtracking matcher on recheck's attack shape, pumped more and more.
    const g = growth({ source, flags }, a);
    seen.oracle++;
    if (want === 'exponential') expect(g).toMatchObject({ capped: true, max: expect.any(Number) });
    expect(g.max).toBeGreaterThanOrEqual(
      want === 'exponential' ? 3.5 : Math.min(r.complexity!.degree!, 4) - 0.6,
    );
  });

  it('ran as many cases as conformance.json declares', () => {
    expect(seen.vectors).toBe(declaredCases(import.meta.url, 'Published ReDoS patterns'));
    expect(seen.oracle).toBe(declaredCases(import.meta.url, 'Attack strings checked'));
  });
});

describe('regex-tester analyze: safe patterns', () => {
  let count = 0;
  it.each(SAFE)('%s (%s) is safe', (source, flags) => {
    count++;
    const r = analyzePattern(source, flags, ROOMY);
    expect(r).toMatchObject({ status: 'safe', attack: null, reason: null, hotspots: [] });
    expect(['constant', 'linear', 'safe']).toContain(r.complexity?.type);
  });
  it('ran as many cases as conformance.json declares', () => {
    expect(count).toBe(declaredCases(import.meta.url, 'Deterministic patterns'));
  });

  it('the oracle itself tells linear from super-linear (control)', () => {
    const shape = { pattern: null, string: null, length: 0, pumps: [{ prefix: '', pump: 'a' }], suffix: '!' };
    const linear = growth({ source: '^a+$', flags: '' }, shape);
    expect(linear.capped).toBe(false);
    expect(linear.max).toBeLessThan(1.3);
    const quadratic = growth({ source: 'a+$', flags: '' }, shape);
    expect(quadratic.capped).toBe(false);
    expect(quadratic.max).toBeGreaterThan(1.6);
    expect(quadratic.max).toBeLessThan(2.4);
    expect(growth({ source: '^(a+)+$', flags: '' }, shape)).toMatchObject({ capped: true });
  });

  it("a known limit: one match attempt is analysed, so trim's /^\\s*|\\s*$/g (CVE-2020-7753) reads safe", () => {
    // The slow part is a later exec of the g loop, which starts past the first match.
    expect(analyzePattern('^\\s*|\\s*$', 'g', ROOMY).status).toBe('safe');
    // Its second alternative alone is the quadratic one.
    expect(analyzePattern('\\s*$', '', ROOMY).complexity).toMatchObject({ type: 'polynomial', degree: 2 });
  });
});

describe('regex-tester analyze mode', () => {
  it('answers the verdict, the class, the attack and the hotspots', async () => {
    const r = await analyze({ pattern: '/^(a+)+$/' });
    expect(r).toMatchObject({
      mode: 'analyze',
      pattern: '^(a+)+$',
      flags: '',
      flagsFrom: 'none',
      status: 'vulnerable',
      checker: 'automaton',
      complexity: { type: 'exponential', summary: 'exponential' },
      attack: { pumps: [{ prefix: 'a', pump: 'a' }], suffix: '\u0000' },
      hotspots: [{ start: 2, end: 3, temperature: 'heat' }],
      reason: null,
    });
    const a = r.attack as NonNullable<Analysis['attack']>;
    expect(a.string).toBe(`${'a'.repeat(32)}\u0000`);
    // attack.pattern is a JavaScript expression of the same string.
    expect(new Function(`return ${a.pattern}`)()).toBe(a.string);
  });

  it('gives a polynomial degree, and a long attack string by its expression and length only', async () => {
    const r = await analyze({ pattern: 'a*b*c' });
    expect(r.complexity).toEqual({ type: 'polynomial', degree: 2, summary: '2nd degree polynomial' });
    const a = r.attack as NonNullable<Analysis['attack']>;
    expect(a.length).toBeGreaterThan(MAX_ATTACK_STRING_CHARS);
    expect(a.string).toBeNull();
    expect((new Function(`return ${a.pattern}`)() as string).length).toBe(a.length);
  });

  it('answers unknown with the reason when the analysis runs out of its budget, not a TIMEOUT', async () => {
    // A lookbehind sends recheck to its fuzzer, which uses all of its budget here.
    const r = await analyze({ pattern: '(?<=a+)b' });
    expect(r).toMatchObject({
      status: 'unknown',
      complexity: null,
      attack: null,
      reason: { kind: 'timeout', message: `the analysis ran past its ${ANALYZE_BUDGET_MS} ms budget` },
    });
    expect(ANALYZE_BUDGET_MS).toBeLessThan(specOf(tool).policy.timeoutMs / 2);
  });

  it('reads the flags; d is dropped for the analysis but reported', async () => {
    // a|A overlaps only when case is ignored.
    const r = await analyze({ pattern: '^(a|A)+$', flags: 'id' });
    expect(r).toMatchObject({ flags: 'di', flagsFrom: 'field', status: 'vulnerable' });
    expect((await analyze({ pattern: '/^(a|A)+$/d' })).status).toBe('safe');
  });

  it('runs the pure JavaScript backend in this thread, whatever the environment says', async () => {
    const before = { sync: process.env.RECHECK_SYNC_BACKEND, async: process.env.RECHECK_BACKEND };
    process.env.RECHECK_SYNC_BACKEND = 'synckit';
    process.env.RECHECK_BACKEND = 'native';
    try {
      expect((await analyze({ pattern: '(x+x+)+y' })).status).toBe('vulnerable');
    } finally {
      process.env.RECHECK_BACKEND = before.async ?? '';
      if (before.async === undefined) delete process.env.RECHECK_BACKEND;
    }
    const lib = createRequire(import.meta.url)('recheck/lib/main.js') as {
      __mock__: { agent: unknown; pool: unknown };
    };
    // No agent (native binary or java child process) and no worker pool was started.
    expect(lib.__mock__.agent).toBeUndefined();
    expect(lib.__mock__.pool).toBeNull();
    expect(process.env.RECHECK_SYNC_BACKEND).toBe('pure');
  });

  it('ignores text', async () => {
    const r = await analyze({ pattern: '^\\d+$', text: 'whatever' });
    expect(r).toMatchObject({ status: 'safe', complexity: { type: 'linear' } });
    expect(r).not.toHaveProperty('matches');
  });
});

describe('regex-tester analyze: bad input', () => {
  it('an invalid pattern is INVALID_INPUT with the engine message', async () => {
    await expectToolError(
      regexTester({ pattern: '(a+' }, 'analyze'),
      'INVALID_INPUT',
      'Invalid regular expression: /(a+/: Unterminated group',
    );
  });

  it('the v flag is UNSUPPORTED_OPTION (the analyser reads u syntax only)', async () => {
    const err = await expectToolError(
      regexTester({ pattern: '[\\p{L}--[a-z]]', flags: 'v' }, 'analyze'),
      'UNSUPPORTED_OPTION',
      /flag 'v' is not supported in analyze mode/,
    );
    expect(err.message.length).toBeLessThan(200);
  });

  it('an unknown or repeated flag is INVALID_INPUT, as in the other modes', async () => {
    await expectToolError(regexTester({ pattern: 'a', flags: 'x' }, 'analyze'), 'INVALID_INPUT', /flag 'x'/);
    await expectToolError(regexTester({ pattern: 'a', flags: 'gg' }, 'analyze'), 'INVALID_INPUT', /repeated/);
  });

  it('a pattern over the analysis limit is INVALID_INPUT with a short message', async () => {
    const pattern = '(a+)+'.repeat(2000);
    const err = await expectToolError(
      regexTester({ pattern }, 'analyze'),
      'INVALID_INPUT',
      `analyze takes patterns up to ${MAX_ANALYZE_PATTERN_CHARS} characters; this one has 10000. Analyse the part you suspect`,
    );
    expect(err.message.length).toBeLessThan(200);
    // At the limit it is analysed, within its budget.
    const r = await analyze({ pattern: '(a+)+'.repeat(MAX_ANALYZE_PATTERN_CHARS / 5) });
    expect(['vulnerable', 'unknown']).toContain(r.status);
  });

  it('a nesting too deep for the analyser answers unknown (too-complex), not a crash', async () => {
    const pattern = `${'('.repeat(MAX_ANALYZE_PATTERN_CHARS / 2)}${')'.repeat(MAX_ANALYZE_PATTERN_CHARS / 2)}`;
    const r = await analyze({ pattern });
    // Deep enough for the analyser's recursion on a default stack; a larger stack may cope.
    if (r.status === 'unknown') expect(r.reason).toMatchObject({ kind: 'too-complex' });
    else expect(r.status).toBe('safe');
  });
});
