/**
 * The round-trip oracle, run on every conversion into a text-only or restricted format: the
 * output is read back and compared with the data that was written. CSV, TSV, XML and INI hold
 * only text (a string "123" reads back as a number, an XML element of a one-item array as a
 * single value, an empty row vanishes), and the libraries have corner cases of their own. Rather
 * than list every such case by hand, the answer names the first few differences as a warning.
 */
import { childPath, describe, isObject, type Json, where } from './model.js';

const MAX_LISTED = 3;

function show(value: Json): string {
  if (value !== null && typeof value === 'object') return describe(value);
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Describes how `actual` differs from `expected`, depth first, stopping after `limit` findings. */
export function differences(expected: Json, actual: Json, limit = MAX_LISTED + 1): string[] {
  const found: string[] = [];
  const walk = (a: Json, b: Json, path: string): void => {
    if (found.length >= limit) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) {
        found.push(`${where(path)}: ${a.length} item(s) read back as ${b.length}`);
        return;
      }
      for (let i = 0; i < a.length && found.length < limit; i++) walk(a[i]!, b[i]!, childPath(path, i));
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const key of Object.keys(a)) {
        if (!Object.hasOwn(b, key)) found.push(`${childPath(path, key)} is lost`);
        else walk(a[key]!, b[key]!, childPath(path, key));
        if (found.length >= limit) return;
      }
      for (const key of Object.keys(b)) {
        if (!Object.hasOwn(a, key)) found.push(`${childPath(path, key)} appears`);
        if (found.length >= limit) return;
      }
      return;
    }
    if (a === b) return; // (-0 === 0: one JSON number)
    found.push(`${where(path)}: ${show(a)} reads back as ${show(b)}`);
  };
  walk(expected, actual, '');
  return found;
}

/** The warning for a conversion whose output does not read back as the data written, or null. */
export function readBackWarning(format: string, expected: Json, actual: Json): string | null {
  const found = differences(expected, actual);
  if (found.length === 0) return null;
  const shown = found.slice(0, MAX_LISTED).join('; ');
  const more = found.length > MAX_LISTED ? '; and more' : '';
  return `reading this ${format.toUpperCase()} back does not give the same data: ${shown}${more}`;
}
