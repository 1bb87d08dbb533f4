/** Match iteration with the semantics of String.prototype.match/replace (global and sticky flags). */

/** AdvanceStringIndex of the spec: past an empty match, by a whole code point in unicode modes. */
export function advanceIndex(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  const code = text.charCodeAt(index);
  const next = text.charCodeAt(index + 1);
  return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? index + 2 : index + 1;
}

/**
 * A wall-clock budget for a global iteration, checked between two execs: past `deadline`
 * (a performance.now() time) the iteration stops and `timedOut` is set. One exec cannot be
 * stopped from inside this thread; a single catastrophic exec still meets the run's deadline.
 */
export interface MatchBudget {
  deadline: number;
  timedOut: boolean;
}

/**
 * Without `g`: the first match only (from index 0; with `y`, only at index 0).
 * With `g`: every match; an empty match moves lastIndex on, so the loop always ends
 * (at most text.length + 1 matches).
 */
export function* execAll(regex: RegExp, text: string, budget?: MatchBudget): Generator<RegExpExecArray> {
  regex.lastIndex = 0;
  if (!regex.global) {
    const m = regex.exec(text);
    if (m) yield m;
    return;
  }
  const unicode = regex.flags.includes('u') || regex.flags.includes('v');
  for (;;) {
    const m = regex.exec(text);
    if (m === null) return;
    yield m;
    if (m[0] === '') regex.lastIndex = advanceIndex(text, regex.lastIndex, unicode);
    if (budget && performance.now() > budget.deadline) {
      budget.timedOut = true;
      return;
    }
  }
}
