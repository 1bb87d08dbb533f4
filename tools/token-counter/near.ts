/**
 * The known names nearest to an unknown one, for an error that says what was meant
 * (gpt-4-0409 → gpt-4-0314, gpt-4-0613): edit distance, with a reach that grows with the
 * name so that a short name does not suggest every other short one.
 */

/** Levenshtein distance of a and b, or `limit + 1` as soon as it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Up to `max` names within reach of `wanted` (a third of its length, at least 2 edits),
 * nearest first, then shorter, then alphabetical. A known name that `wanted` starts with,
 * or that starts with `wanted`, is within reach too (claude-sonnet-4 → claude-sonnet-4-0).
 */
export function nearNames(wanted: string, names: readonly string[], max = 5): string[] {
  const reach = Math.max(2, Math.floor(wanted.length / 3));
  const scored: [string, number][] = [];
  for (const name of new Set(names)) {
    const prefix = name.startsWith(wanted) || wanted.startsWith(name);
    const distance = editDistance(wanted, name, prefix ? Number.MAX_SAFE_INTEGER : reach);
    if (prefix || distance <= reach) scored.push([name, distance]);
  }
  scored.sort(([a, da], [b, db]) => da - db || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return scored.slice(0, max).map(([name]) => name);
}
