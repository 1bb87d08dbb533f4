/** match, test and split modes: results listed up to a count and a size, then counted only. */
import { execAll, type MatchBudget } from './exec-all.js';

export const MAX_MATCHES = 1000;
export const MAX_PARTS = 1000;
/** Characters of matched text listed in one answer (lookaheads can capture the rest of the text each time). */
export const MAX_LISTED_CHARS = 1_000_000;

export interface MatchInfo {
  match: string;
  index: number;
  end: number;
  /** Named groups (unmatched ones null), or null when the pattern has none. */
  groups: Record<string, string | null> | null;
  /** Numbered groups 1..n, unmatched ones null. */
  captures: (string | null)[];
  /** With the `d` flag: [start, end] of each capture (null when unmatched). */
  captureIndices?: ([number, number] | null)[];
}

function describeMatch(m: RegExpExecArray): MatchInfo {
  const info: MatchInfo = {
    match: m[0],
    index: m.index,
    end: m.index + m[0].length,
    groups: m.groups ? Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v ?? null])) : null,
    captures: m.slice(1).map((c) => c ?? null),
  };
  if (m.indices) info.captureIndices = m.indices.slice(1).map((pair) => (pair ? [pair[0], pair[1]] : null));
  return info;
}

/** JSON overhead counted per capture and per named group, so empty or unmatched ones count too. */
const ENTRY_OVERHEAD = 8;

/**
 * Approximate size of a listed match: its text and captures, plus an overhead per capture
 * and named group. Counting text alone let a pattern of thousands of empty groups list
 * 1000 matches of thousands of nulls each (tens of MB).
 */
function listedChars(m: RegExpExecArray): number {
  let sum = 0;
  for (const c of m) sum += (c?.length ?? 0) + ENTRY_OVERHEAD;
  if (m.groups)
    for (const [name, v] of Object.entries(m.groups)) sum += name.length + (v?.length ?? 0) + ENTRY_OVERHEAD;
  if (m.indices) sum += m.length * 2 * ENTRY_OVERHEAD;
  return sum;
}

/**
 * Lists matches (first MAX_MATCHES, within MAX_LISTED_CHARS) and counts them all, or, when
 * the budget runs out first, those found so far (`timedOut`, `truncated`).
 */
export function listMatches(
  regex: RegExp,
  text: string,
  budget: MatchBudget = { deadline: Infinity, timedOut: false },
) {
  const matches: MatchInfo[] = [];
  let count = 0;
  let chars = 0;
  let full = false;
  for (const m of execAll(regex, text, budget)) {
    count++;
    if (full) continue;
    chars += listedChars(m);
    if (matches.length >= MAX_MATCHES || chars > MAX_LISTED_CHARS) full = true;
    else matches.push(describeMatch(m));
  }
  return { matches, count, truncated: matches.length < count || budget.timedOut, timedOut: budget.timedOut };
}

/** First match only: does the pattern match, and where. */
export function testMatch(regex: RegExp, text: string) {
  regex.lastIndex = 0;
  const m = regex.exec(text);
  return { matched: m !== null, index: m ? m.index : null, match: m ? m[0] : null };
}

/** Native split (captures are spliced in, unmatched ones null), cut at MAX_PARTS and MAX_LISTED_CHARS. */
export function splitText(regex: RegExp, text: string) {
  const all = text.split(regex, MAX_PARTS + 1);
  const parts: (string | null)[] = [];
  let chars = 0;
  for (const part of all) {
    chars += part?.length ?? 0;
    if (parts.length >= MAX_PARTS || chars > MAX_LISTED_CHARS) break;
    parts.push(part ?? null);
  }
  return { parts, count: parts.length, truncated: parts.length < all.length };
}
