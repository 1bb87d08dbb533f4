/**
 * Day of week between the Unix numbering (0-6, 7 = Sunday again) and the Quartz / AWS one
 * (1-7 = SUN-SAT), for convert mode. Names mean the same day in both, so they stay as
 * written, unless the list names a day twice (`SUN,0`): then it is written as its set of
 * days, each once (value-sets.ts).
 */
import { unixSyntax } from './cron-fields.js';
import { QUARTZ_WEEKDAYS } from './dialect-syntax.js';
import type { Dialect } from './tool.js';
import { compress, listValues, onceEach } from './value-sets.js';

const isName = (item: string) => /^[a-z]{3}(-[a-z]{3})?$/i.test(item);

/** One weekday token (a number in the source's numbering, or a name) in the target's. */
function weekdayToken(token: string, from: Dialect, to: Dialect): string {
  if (/^[a-z]{3}$/i.test(token)) return token;
  const unix = from === 'unix' ? Number(token) % 7 : Number(token) - 1;
  return String(to === 'unix' ? unix : unix + 1);
}

/** Day of week from one numbering (Unix 0-6, Quartz and AWS 1-7) to the other; names stay. */
export function mapWeekdays(text: string, from: Dialect, to: Dialect): string {
  const sameNumbering = (from === 'unix') === (to === 'unix');
  if (sameNumbering || text === '*' || text === '?') return text;
  if (text === 'L') return from === 'unix' ? text : '6'; // Quartz L alone: Saturday
  const last = /^(\w+)L$/i.exec(text);
  if (last) return `${weekdayToken(last[1] as string, from, to)}L`;
  const nth = /^(\w+)#(\d+)$/.exec(text);
  if (nth) return `${weekdayToken(nth[1] as string, from, to)}#${nth[2]}`;
  const syntax = from === 'unix' ? unixSyntax('dayOfWeek') : QUARTZ_WEEKDAYS;
  const twice = onceEach(text, syntax) !== null;
  const items = text.split(',');
  if (!twice && items.every(isName)) return text;
  const named = twice ? [] : items.filter(isName);
  const numeric = twice ? text : items.filter((i) => !isName(i)).join(',');
  // Unix days come folded to 0-6 (7 is Sunday's 0); Quartz days are 1-7.
  const days = listValues(numeric, syntax).map((d) => (from === 'unix' ? d : d - 1));
  const shifted = days.map((d) => (to === 'unix' ? d : d + 1));
  return [compress(shifted), ...named].join(',');
}
