/**
 * A field that names a value twice, written with each value once. Vixie cron and cronie set
 * one bit per value (day of week 7 being Sunday's bit, like 0) and Quartz adds values to a
 * set, so `0,7`, `SUN,0`, `1-5,3` and `0-7` are valid and mean each day once (SKILL.md,
 * "Dialects"). cron-parser refuses a value met twice ("duplicate values") and cronstrue
 * describes it twice ("Sunday and Sunday", "Sunday through Sunday"): both read the field
 * with the repeats taken out.
 */
import type { FieldName } from './cron-fields.js';
import { expandItems } from './dialect-syntax.js';
import { CronSyntaxError } from './syntax-error.js';

/** How one field's values are written: bounds, a token's value, and which values are the same (7 ≡ 0). */
export interface ValueSyntax {
  field: FieldName;
  min: number;
  max: number;
  token: (token: string) => number;
  fold?: (value: number) => number;
}

/** "1,2,3,5" → "1-3,5": runs of three or more written as ranges. */
export function compress(values: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < values.length; ) {
    let j = i;
    while (j + 1 < values.length && (values[j + 1] as number) === (values[j] as number) + 1) j++;
    if (j - i >= 2) out.push(`${values[i]}-${values[j]}`);
    else for (let k = i; k <= j; k++) out.push(String(values[k]));
    i = j + 1;
  }
  return out.join(',');
}

/** The items of a list; `?` as an item is `*` (cron-parser reads it so). */
const itemsOf = (text: string) => text.replace(/(^|,)\?(?=\/|,|$)/g, '$1*').split(',');

const fold = (syntax: ValueSyntax, value: number) => (syntax.fold ? syntax.fold(value) : value);

/** Every value an item names, folded, repeats kept; throws CronSyntaxError on an item it cannot read. */
function itemValues(item: string, syntax: ValueSyntax): number[] {
  return expandItems(syntax.field, item, syntax.min, syntax.max, syntax.token).map((v) => fold(syntax, v));
}

const unique = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);

/**
 * An item cronstrue misreads where a value has two numbers: a range from a day to the same
 * day (`0-7`, "Sunday through Sunday"), or a step from one start (`3/2`), which cron-parser
 * runs up to 7 (Sunday) and cronstrue describes up to Saturday.
 */
function misread(item: string, syntax: ValueSyntax): boolean {
  if (syntax.fold === undefined) return false;
  if (/^[^*-]+\//.test(item)) return true;
  const ends = /^([^/*-]+)-([^/]+)/.exec(item);
  if (ends === null) return false;
  return fold(syntax, syntax.token(ends[1] as string)) === fold(syntax, syntax.token(ends[2] as string));
}

/** The values of a checked list, each once, ascending (folded: Unix day of week 0-6). */
export function listValues(text: string, syntax: ValueSyntax): number[] {
  return unique(itemsOf(text).flatMap((item) => itemValues(item, syntax)));
}

/**
 * The list with each value named once: an item naming only values met before is dropped
 * (`0,7` → `0`, `1-5,3` → `1-5`), and one naming some of them, or one value twice (`*\/7`:
 * 0 and 7), or misread by cronstrue, is written as the values it adds (`0-7` → `0-6`).
 * Items that name new values stay as written, so a `*` or a step still reads as one.
 * Null when nothing changes, or the list is not plain n, a-b, n/s, a-b/s, * and *\/s
 * (L, W, # and errors are left to the field's own check).
 */
export function onceEach(text: string, syntax: ValueSyntax): string | null {
  const seen = new Set<number>();
  const out: string[] = [];
  try {
    for (const item of itemsOf(text)) {
      const named = itemValues(item, syntax);
      // `*` names 0 and 7 in day of week; cron-parser reads it as every day, once each.
      const own = item === '*' ? unique(named) : named;
      const fresh = unique(own).filter((v) => !seen.has(v));
      for (const v of fresh) seen.add(v);
      if (fresh.length === own.length && !misread(item, syntax)) out.push(item);
      else if (fresh.length > 0) out.push(compress(fresh));
    }
  } catch (err) {
    if (err instanceof CronSyntaxError) return null;
    throw err;
  }
  const rewritten = out.join(',');
  return rewritten === itemsOf(text).join(',') ? null : rewritten;
}
