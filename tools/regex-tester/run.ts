/** regex-tester: match, test, replace and split with native JavaScript RegExp semantics; analyze with recheck. */
import { type ToolInput, ToolInputError } from '#tool-kit';
import { analyzePattern, warmUpRecheck } from './analyze.js';
import { compilePattern, engineRefusal } from './compile.js';
import type { MatchBudget } from './exec-all.js';
import { listMatches, splitText, testMatch } from './matches.js';
import { replaceBounded } from './substitute.js';
import { TIMEOUT_MS as timeoutMs } from './tool.js';

/**
 * What a global match or replace may spend before it stops with the matches found so far
 * (`timedOut: true`), leaving the rest of the run's deadline for the answer.
 */
export const MATCH_BUDGET_MS = Math.round(timeoutMs * 0.75);
/** recheck's own time budget; past it the analysis answers `unknown` (timeout). */
export const ANALYZE_BUDGET_MS = Math.round(timeoutMs * 0.4);

/**
 * Outside the run's deadline: loads recheck (70 ms on an idle core, about 200 ms on a loaded
 * one) and warms it up before a worker's first analysis.
 */
export function prepare(_input: ToolInput, mode: string): void {
  if (mode === 'analyze') warmUpRecheck();
}

/** Input as the schema in tool.ts passed it: strings within their lengths, text defaulted to ''. */
export default async function run(input: ToolInput, mode: string) {
  const started = performance.now();
  // Only replace reads a replacement: elsewhere it would be ignored, so it is refused.
  if (mode !== 'replace' && input.replacement !== undefined)
    throw new ToolInputError(`replacement is for replace mode, not ${mode}`);
  const compiled = compilePattern(input.pattern as string, input.flags as string | undefined);
  const { regex, source, flags, flagsFrom } = compiled;
  const head = { mode, pattern: source, flags, flagsFrom };
  if (mode === 'analyze') {
    // As in the other modes, a pattern the engine cannot compile (compiled on the first exec) is refused.
    try {
      regex.test('');
    } catch (err) {
      throw engineRefusal(err) ?? err;
    }
    return { ...head, ...analyzePattern(source, flags, { timeoutMs: ANALYZE_BUDGET_MS }) };
  }
  const budget: MatchBudget = { deadline: started + MATCH_BUDGET_MS, timedOut: false };
  try {
    return execute(mode, regex, input.text as string, input.replacement as string | undefined, head, budget);
  } catch (err) {
    // V8 compiles a pattern lazily, on its first exec: a pattern too large or too deeply
    // nested for the engine ("Stack overflow", "Regular expression too large") fails there.
    throw engineRefusal(err) ?? err;
  }
}

function execute(
  mode: string,
  regex: RegExp,
  text: string,
  given: string | undefined,
  head: object,
  budget: MatchBudget,
) {
  switch (mode) {
    case 'test':
      return { ...head, ...testMatch(regex, text) };
    case 'replace': {
      // No replacement deletes the matches.
      const replacement = given ?? '';
      return { ...head, replacement, ...replaceBounded(regex, text, replacement, budget) };
    }
    case 'split':
      return { ...head, ...splitText(regex, text) };
    default:
      return { ...head, global: regex.global, ...listMatches(regex, text, budget) };
  }
}
