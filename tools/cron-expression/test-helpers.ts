/**
 * Brute-force reference for the next runs of 5-field expressions, independent of the
 * product: it walks real instants minute by minute, reads the local date and time with
 * Intl.DateTimeFormat, and matches fields it expands itself. DST rules as documented:
 * a wall minute the clock jumps over runs shifted by the jump (its position after the
 * last minute shown before it); a wall minute shown twice runs again only when the minute
 * or hour field is a wildcard (`*`, a step, or every value).
 */
import awsCronParser from 'aws-cron-parser';
import { Cron } from 'croner';

const MINUTE = 60_000;

/** Values of one numeric field: `*`, `?`, n, a-b, a-b/s, n/s, *\/s and lists of those. */
export function expandField(text: string, min: number, max: number): Set<number> {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const [range = '', stepText] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let lo = min;
    let hi = max;
    if (range !== '*' && range !== '?') {
      const [a = '', b] = range.split('-');
      lo = Number(a);
      hi = b !== undefined ? Number(b) : stepText !== undefined ? max : lo;
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

export type Matcher = (w: Wall) => boolean;

/** Matcher of a 5-field expression; both day fields restricted means either day matches. */
export function matcher(expression: string): { matches: Matcher; bothPasses: boolean } {
  const [mi = '', ho = '', dom = '', mo = '', dow = ''] = expression.split(' ');
  const minutes = expandField(mi, 0, 59);
  const hours = expandField(ho, 0, 23);
  const days = expandField(dom, 1, 31);
  const months = expandField(mo, 1, 12);
  const weekdays = new Set([...expandField(dow, 0, 7)].map((d) => d % 7));
  const free = (f: string) => f === '*' || f === '?';
  const either = !free(dom) && !free(dow);
  const wild = (f: string, set: Set<number>, span: number) => /[*?/]/.test(f) || set.size === span;
  return {
    bothPasses: wild(mi, minutes, 60) || wild(ho, hours, 24),
    matches: (w) => {
      if (!minutes.has(w.minute) || !hours.has(w.hour) || !months.has(w.month)) return false;
      const d = days.has(w.day);
      const wd = weekdays.has(w.weekday);
      return either ? d || wd : d && wd;
    },
  };
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function wallOf(format: Intl.DateTimeFormat, instant: number): Wall {
  const parts = format.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    weekday: WEEKDAYS.indexOf(get('weekday')),
  };
}

/** A wall minute as a number, to step through the minutes the clock jumped over. */
const wallKey = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);

function wallFromKey(key: number): Wall {
  const d = new Date(key);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    weekday: d.getUTCDay(),
  };
}

/** One candidate instant: the wall minute it stands for, and whether that minute was shown before. */
interface Slot {
  instant: number;
  wall: Wall;
  repeat: boolean;
}

/**
 * Every slot in (from, from + hours): each minute instant with its own wall minute, plus
 * the wall minutes skipped just before it. The walk starts two hours early (more than
 * any shift of the zones tested) so a repeated minute is recognised as such.
 */
export function slots(timeZone: string, from: number, hours: number): Slot[] {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  });
  const out: Slot[] = [];
  const seen = new Set<number>();
  const first = Math.ceil((from - 2 * 3_600_000) / MINUTE) * MINUTE;
  const end = from + hours * 3_600_000;
  let previous: number | null = null;
  for (let t = first; t < end; t += MINUTE) {
    const wall = wallOf(format, t);
    const key = wallKey(wall);
    if (previous !== null && key > previous + MINUTE) {
      // Skipped minutes: the k-th one runs k minutes after the last minute shown.
      for (let k = previous + MINUTE; k < key; k += MINUTE) {
        out.push({ instant: t - MINUTE + (k - previous), wall: wallFromKey(k), repeat: false });
      }
    }
    out.push({ instant: t, wall, repeat: seen.has(key) });
    seen.add(key);
    previous = key;
  }
  // A skipped minute runs after the minute that follows the jump: it may fall past the end.
  return out.filter((s) => s.instant > from && s.instant < end);
}

/** Run instants of a 5-field expression among the slots, ascending and without duplicates. */
export function referenceRuns(expression: string, slotList: readonly Slot[]): number[] {
  const { matches, bothPasses } = matcher(expression);
  const runs = new Set<number>();
  for (const s of slotList) {
    if ((!s.repeat || bothPasses) && matches(s.wall)) runs.add(s.instant);
  }
  return [...runs].sort((a, b) => a - b);
}

/** Oracles of the Quartz and EventBridge dialects (dialects.test.ts, convert.test.ts). */
const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z');

const FIELD_MAX = [59, 59, 23, 31, 12, 7, 2099];

/**
 * croner (independent implementation) with Quartz numbering: day of week 1-7 = SUN-SAT,
 * optional year. croner 11 refuses Quartz's `n/step` ("from n, every step"), which is
 * written here as the range it means, `n-max/step`.
 */
export function cronerRuns(quartz: string, from: string, count: number, timezone = 'UTC'): string[] {
  const pattern = quartz
    .split(' ')
    .map((field, i) => field.replace(/(^|,)(\d+)\/(\d+)/g, `$1$2-${FIELD_MAX[i]}/$3`))
    .join(' ');
  const job = new Cron(pattern, { timezone, alternativeWeekdays: true, mode: '6-or-7-parts', paused: true });
  return job.nextRuns(count, new Date(from)).map(iso);
}

/** aws-cron-parser (independent implementation of AWS cron, UTC): the six fields inside cron(...). */
export function awsRuns(expression: string, from: string, count: number): string[] {
  const fields = /^cron\((.*)\)$/.exec(expression)?.[1] ?? expression;
  const parsed = awsCronParser.parse(fields);
  const out: string[] = [];
  let at: Date | null | undefined = new Date(from);
  while (out.length < count) {
    at = awsCronParser.next(parsed, at);
    if (!at) break;
    out.push(iso(at));
  }
  return out;
}

/** croner on a Unix expression (day of week 0-6, 5 fields or 6 with seconds first; day fields OR-ed as in Vixie cron). */
export function cronerUnixRuns(unix: string, from: string, count: number, timezone = 'UTC'): string[] {
  const parts = unix.split(' ');
  const max = parts.length === 6 ? [59, 59, 23, 31, 12, 7] : [59, 23, 31, 12, 7];
  const pattern = parts.map((field, i) => field.replace(/(^|,)(\d+)\/(\d+)/g, `$1$2-${max[i]}/$3`)).join(' ');
  const job = new Cron(pattern, { timezone, mode: '5-or-6-parts', paused: true });
  return job.nextRuns(count, new Date(from)).map(iso);
}
