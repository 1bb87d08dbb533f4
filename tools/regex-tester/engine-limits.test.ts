import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool, { MODES } from './tool.js';

const regexTester = toolRunner(tool, run);

type Result = Record<string, unknown>;

describe('regex-tester engine limits', () => {
  it.each([
    ['thousands of groups', '()'.repeat(16000)],
    ['deep nesting', `${'('.repeat(16000)}${')'.repeat(16000)}`],
  ])(
    'a pattern the engine can parse but not compile (%s) is INVALID_INPUT, not a crash',
    async (_, pattern) => {
      for (const mode of MODES) {
        // The engine's reason, with the 32,000-character pattern shortened in the message.
        const err = await expectToolError(
          regexTester({ pattern, text: 'abc', flags: 'g' }, mode),
          'INVALID_INPUT',
          /^Invalid regular expression: .*: Stack overflow$/,
        );
        expect(err.message.length).toBeLessThan(400);
      }
    },
  );

  it('a counted repeat the engine overflows its stack on is INVALID_INPUT, not an internal error', async () => {
    // V8 unrolls a huge repeat of a group that can match empty: a RangeError, not a SyntaxError.
    // Compiling it takes about a second, so on the hub a slow machine may answer TIMEOUT first.
    // analyze compiles it before the analyser; the other modes on their first match.
    for (const mode of ['analyze', 'match']) {
      const err = await expectToolError(
        regexTester({ pattern: '((a*){2147483647}){2}', text: 'abc' }, mode),
        'INVALID_INPUT',
        'the engine ran out of stack compiling or running this pattern',
      );
      expect(err.message.length).toBeLessThan(300);
    }
  });

  it('counts empty captures and named groups in the listing budget', async () => {
    // 3000 empty named groups on 1000 matches was 40 MB of nulls before the budget counted them.
    const pattern = Array.from({ length: 3000 }, (_, i) => `(?<g${i}>)`).join('');
    const r = (await regexTester({ pattern, text: 'a'.repeat(1000), flags: 'g' }, 'match')) as Result;
    // All 1001 counted, unless this slow pattern ran out of the match budget on a loaded machine.
    expect(r).toMatchObject(r.timedOut ? { truncated: true } : { count: 1001, truncated: true });
    expect((r.matches as unknown[]).length).toBeLessThan(100);
    expect(JSON.stringify(r).length).toBeLessThan(2_000_000);
  });
});
