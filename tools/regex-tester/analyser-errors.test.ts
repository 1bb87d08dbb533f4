/**
 * analyze: what the analyser (recheck) cannot read is INVALID_INPUT in the tool's words,
 * never recheck's own text (a Java "For input string", its parser's "parsing failure (at
 * n)"). Named cases first, then seeded odd patterns: every answer is a verdict, an
 * `unknown` with the tool's reason, or a refusal without the analyser's words.
 */
import { describe, expect, it } from 'vitest';
import { expectToolError, seededRandom, toolRunner } from '../_shared/test-helpers.js';
import { analyzePattern, MAX_ANALYZE_PATTERN_CHARS } from './analyze.js';
import run from './run.js';
import tool from './tool.js';

const regexTester = toolRunner(tool, run);
/** Words of recheck, of the Java or Scala runtime under it, or of its parser. */
const ANALYSER_WORDS =
  /For input string|NumberFormat|Exception|java|scala|parsing failure|\(at \d|unknown Unicode|duplicated name/i;
const MESSAGE_MAX = 400;

async function refusal(pattern: string, flags = ''): Promise<string> {
  const err = await expectToolError(regexTester({ pattern, flags }, 'analyze'), 'INVALID_INPUT');
  expect(err.message).not.toMatch(ANALYSER_WORDS);
  expect(err.message.length).toBeLessThan(MESSAGE_MAX);
  return err.message;
}

describe("analyze: a quantifier bound past 2147483647, the analyser's largest", () => {
  it('a{0,4294967295} is INVALID_INPUT naming the quantifier, not a Java message', async () => {
    expect(await refusal('a{0,4294967295}')).toBe(
      "analyze: the quantifier '{0,4294967295}' at offset 1 goes past 2147483647, the largest bound the analyser reads; lower it, or write * or + where no limit is meant",
    );
    // At the largest bound the analyser reads it is analysed: a verdict, or unknown in the tool's words.
    const edge = analyzePattern('^a{2147483647}$', '', { timeoutMs: 200 });
    expect(['safe', 'unknown']).toContain(edge.status);
    if (edge.reason) expect(edge.reason.message).not.toMatch(ANALYSER_WORDS);
  });

  it.each([
    ['a{4294967295}', '', "'{4294967295}' at offset 1"],
    ['(ab){2147483648,}', 'i', "'{2147483648,}' at offset 4"],
    ['x[a-z]{1,99999999999}', 'u', "'{1,99999999999}' at offset 6"],
    ['a{0002147483648}', '', "'{0002147483648}' at offset 1"],
    [`a{${'9'.repeat(40)}}`, '', `'{${'9'.repeat(19)}…' at offset 1`],
  ])('%s (flags %j)', async (pattern, flags, where) => {
    expect(await refusal(pattern, flags)).toContain(`the quantifier ${where} goes past 2147483647`);
  });
});

describe('analyze: a part the analyser cannot read, which the engine accepts', () => {
  it.each([
    // Without u, \u{41} is the letter u 41 times and \u004 is u004 (legacy forms).
    ['\\u{41}', '', "the analyser stops reading the pattern at offset 2 ('{41}')"],
    ['ab\\u004', '', 'the analyser stops reading the pattern at offset 7 (the end)'],
    ['(?<\\u{1d4d1}>a)', '', "the analyser stops reading the pattern at offset 5 ('{1d4d1}>a)')"],
    // Unicode 15's Kawi script, known to the engine, not to the analyser's Unicode data.
    ['x\\p{Script=Kawi}+', 'u', "the Unicode property at offset 1 ('\\p{Script=Kawi}')"],
    ['\\p{EBase}', 'u', "the Unicode property at offset 0 ('\\p{EBase}')"],
  ])('%s (flags %j)', async (pattern, flags, says) => {
    expect(await refusal(pattern, flags)).toContain(says);
  });
});

/** An odd pattern: legacy escapes, Unicode properties, huge or odd bounds, nested groups. */
function oddPattern(rnd: () => number, depth = 0): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
  const atoms = [
    'a',
    '.',
    '\\d',
    '[a-z]',
    '\\c',
    '\\k',
    '\\8',
    '\\07',
    '\\u{41}',
    '\\u004',
    '\\x4',
    ']',
    '{',
  ];
  const more = ['a{,3}', '\\p{L}', '\\p{Script=Kawi}', '\\p{EBase}', '\\u{1F600}', '(?:)', '[\\d-z]'];
  const bounds = [
    '',
    '',
    '*',
    '+?',
    '{2,5}',
    '{1,65535}',
    '{0,4294967295}',
    '{2147483648,}',
    '{99999999999}',
  ];
  let out = '';
  for (let i = 0; i <= Math.floor(rnd() * 3); i++) {
    const group = depth < 2 && rnd() < 0.25;
    const atom = group
      ? `${pick(['(', '(?:', '(?=', '(?<=', '(?<n>'])}${oddPattern(rnd, depth + 1)})`
      : pick([...atoms, ...more]);
    out += atom + pick(bounds);
  }
  return out;
}

describe("analyze: seeded odd patterns never answer in the analyser's words", () => {
  it("200 patterns the engine accepts: a verdict, unknown with the tool's reason, or INVALID_INPUT", () => {
    const rnd = seededRandom(20250307);
    const seen = new Set<string>();
    let refused = 0;
    while (seen.size < 200) {
      const pattern = oddPattern(rnd);
      const flags = rnd() < 0.3 ? 'u' : '';
      try {
        new RegExp(pattern, flags).test('');
      } catch {
        continue; // the engine's own refusal: run.ts answers it before the analyser runs
      }
      if (seen.has(pattern + flags) || pattern.length > MAX_ANALYZE_PATTERN_CHARS) continue;
      seen.add(pattern + flags);
      // A short budget: the mapping of the analyser's errors does not depend on it.
      try {
        const r = analyzePattern(pattern, flags, { timeoutMs: 50 });
        if (r.reason) {
          expect(['timeout', 'too-complex', 'unexpected']).toContain(r.reason.kind);
          expect(r.reason.message, pattern).not.toMatch(ANALYSER_WORDS);
        }
      } catch (err) {
        expect((err as { code?: string }).code, `${pattern}: ${(err as Error).message}`).toBe(
          'INVALID_INPUT',
        );
        expect((err as Error).message, pattern).not.toMatch(ANALYSER_WORDS);
        expect((err as Error).message.length).toBeLessThan(MESSAGE_MAX);
        refused++;
      }
    }
    // The seed draws both kinds of refusal often: the check above is not vacuous.
    expect(refused).toBeGreaterThan(40);
  });
});
