/**
 * Plain-English description (cronstrue). When dayOfMonth and dayOfWeek are both restricted
 * (neither `*` nor `?`) standard cron runs on a day matching either (Vixie cron, and
 * cron-parser, which lists the runs), but cronstrue writes "on day 31 of the month, and on
 * Friday", which reads as both at once. The two day phrases are then described apart and
 * joined with an explicit "or".
 */
import cronstrue from 'cronstrue';

const isUnrestricted = (field: string) => field === '*' || field === '?';

function cronstrueText(expression: string): string {
  return cronstrue.toString(expression, { throwExceptionOnParseError: true, verbose: false });
}

/**
 * "At 12:00 AM, on day 31 of the month, or on Friday, only in April": the segments the
 * two one-sided descriptions share (time before, month after) frame the two day phrases.
 */
function describeEitherDay(parts: string[]): string | null {
  const dom = parts.length - 3;
  const dow = parts.length - 1;
  const withDay = (index: number) => parts.map((p, i) => ((i === dom || i === dow) && i !== index ? '*' : p));
  const byDate = cronstrueText(withDay(dom).join(' ')).split(', ');
  const byWeekday = cronstrueText(withDay(dow).join(' ')).split(', ');
  const shortest = Math.min(byDate.length, byWeekday.length);
  let head = 0;
  while (head < shortest - 1 && byDate[head] === byWeekday[head]) head++;
  let tail = 0;
  while (
    tail < shortest - head - 1 &&
    byDate[byDate.length - 1 - tail] === byWeekday[byWeekday.length - 1 - tail]
  ) {
    tail++;
  }
  if (head === 0) return null; // no shared time phrase: leave cronstrue's own wording
  const datePhrase = byDate.slice(head, byDate.length - tail).join(', ');
  // "only on Friday" is how cronstrue words a weekday alone; after "or" the "only" is wrong.
  const weekdayPhrase = byWeekday
    .slice(head, byWeekday.length - tail)
    .join(', ')
    .replace(/^only on /, 'on ');
  return [
    ...byDate.slice(0, head),
    datePhrase,
    `or ${weekdayPhrase}`,
    ...byDate.slice(byDate.length - tail),
  ].join(', ');
}

/** cronstrue reads 5 fields as minute-first and 6 as second-first, like cron-parser. */
export function describe(expression: string): string | null {
  try {
    const parts = expression.trim().split(/\s+/);
    const dom = parts[parts.length - 3] ?? '*';
    const dow = parts[parts.length - 1] ?? '*';
    if (!isUnrestricted(dom) && !isUnrestricted(dow)) {
      return describeEitherDay(parts) ?? cronstrueText(expression);
    }
    return cronstrueText(expression);
  } catch {
    // The expression already passed cron-parser; a description is a courtesy, not a verdict.
    return null;
  }
}

/** Quartz (and EventBridge, given as Quartz with second 0): day of week 1-7 = SUN-SAT, optional year. */
export function describeQuartz(expression: string): string | null {
  try {
    return cronstrue.toString(expression, {
      throwExceptionOnParseError: true,
      verbose: false,
      dayOfWeekStartIndexZero: false,
    });
  } catch {
    return null;
  }
}

/** rate(5 minutes) → "Every 5 minutes"; rate(1 day) → "Every day (24 hours)". */
export function describeRate(value: number, base: string): string {
  const every = value === 1 ? `Every ${base}` : `Every ${value} ${base}s`;
  return base === 'day' ? `${every} (${value * 24} hours)` : every;
}
