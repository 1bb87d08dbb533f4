/**
 * String format detection. The verdict comes from ajv-formats' own validators (the
 * "full" set, which the hub's validator uses), so a generated `format` always accepts
 * the sample it came from. Cheap shape checks run first: they keep formats that are
 * too permissive for guessing (any `scheme:thing` is a valid uri) from firing, and
 * keep long strings away from the larger regexes.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';

export const FORMATS = ['date-time', 'date', 'uuid', 'email', 'ipv4', 'ipv6', 'uri'] as const;
export type StringFormat = (typeof FORMATS)[number];

type Check = (value: string) => boolean;

/** Turns an ajv-formats definition (RegExp, function, or {validate}) into a predicate. */
function ajvCheck(name: StringFormat): Check {
  const def: unknown = fullFormats[name];
  const inner =
    def && typeof def === 'object' && 'validate' in def ? (def as { validate: unknown }).validate : def;
  if (inner instanceof RegExp) return (value) => inner.test(value);
  if (typeof inner === 'function') return (value) => (inner as Check)(value) === true;
  throw new Error(`ajv-formats has no validator for ${name}`);
}

const RULES: [StringFormat, Check, Check][] = [
  ['date-time', (s) => s.length <= 40 && /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/.test(s), ajvCheck('date-time')],
  ['date', (s) => s.length === 10 && /^\d{4}-\d{2}-\d{2}$/.test(s), ajvCheck('date')],
  ['uuid', (s) => s.length === 36 || s.length === 45, ajvCheck('uuid')],
  [
    'email',
    (s) => s.length <= 254 && s.indexOf('@') > 0 && s.indexOf('@') === s.lastIndexOf('@'),
    ajvCheck('email'),
  ],
  ['ipv4', (s) => s.length <= 15 && /^[\d.]+$/.test(s), ajvCheck('ipv4')],
  ['ipv6', (s) => s.length <= 45 && s.includes(':') && /^[\da-fA-F:.]+$/.test(s), ajvCheck('ipv6')],
  ['uri', (s) => s.length <= 2048 && /^[a-zA-Z][a-zA-Z\d+.-]*:\/\/[^\s/?#]/.test(s), ajvCheck('uri')],
];

/** The format a string clearly has, or null. */
export function detectFormat(value: string): StringFormat | null {
  for (const [format, looksLike, valid] of RULES) {
    if (looksLike(value) && valid(value)) return format;
  }
  return null;
}
