/** Build mode: a JSON object of fields → a cron expression. */
import { parseJsonField, ToolInputError } from '#tool-kit';
import { type CronFields, UNIX_FIELD_NAMES as FIELD_NAMES, type UnixFieldName } from './cron-fields.js';

/** Longest text accepted for one field (a list of 60 two-digit minutes fits). */
const MAX_FIELD_LENGTH = 200;
const MAX_LIST_ITEMS = 60;

/**
 * Unset fields default to '*', except `minute`, which defaults to '0': `{hour: 9}` then means
 * "at 09:00" rather than "every minute of hour 9". `second` is included only when given
 * (the expression then has 6 fields).
 */
export const BUILD_DEFAULTS: Record<Exclude<UnixFieldName, 'second'>, string> = {
  minute: '0',
  hour: '*',
  dayOfMonth: '*',
  month: '*',
  dayOfWeek: '*',
};

function fieldText(name: string, value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) {
      throw new ToolInputError(`fields.${name}: ${value} is not a non-negative integer`);
    }
    return String(value);
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') throw new ToolInputError(`fields.${name} is empty`);
    if (text.length > MAX_FIELD_LENGTH) {
      throw new ToolInputError(`fields.${name} is longer than ${MAX_FIELD_LENGTH} characters`);
    }
    return text;
  }
  if (Array.isArray(value)) {
    if (value.length === 0 || value.length > MAX_LIST_ITEMS) {
      throw new ToolInputError(`fields.${name} must list 1 to ${MAX_LIST_ITEMS} values`);
    }
    if (value.some((v) => Array.isArray(v))) throw new ToolInputError(`fields.${name} has a nested list`);
    return value.map((v) => fieldText(name, v)).join(',');
  }
  throw new ToolInputError(`fields.${name} must be a string, an integer or a list of them`);
}

/** Reads the `fields` object (JSON text or value) into cron field texts; checks names and types only. */
export function readBuildFields(raw: unknown): CronFields {
  const value = parseJsonField(raw, 'fields');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolInputError(
      'fields must be a JSON object such as {"minute":"0","hour":"*/2","dayOfWeek":"1-5"}',
    );
  }
  const known = new Set<string>(FIELD_NAMES);
  const unknown = Object.keys(value).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new ToolInputError(`fields: unknown key '${unknown[0]}'; known keys: ${FIELD_NAMES.join(', ')}`);
  }
  const given = value as Record<string, unknown>;
  const fields: CronFields = {};
  if (given.second !== undefined && given.second !== null) fields.second = fieldText('second', given.second);
  for (const name of Object.keys(BUILD_DEFAULTS) as (keyof typeof BUILD_DEFAULTS)[]) {
    const v = given[name];
    fields[name] = v === undefined || v === null ? BUILD_DEFAULTS[name] : fieldText(name, v);
  }
  return fields;
}

/** Joins fields in cron order (second first when present). */
export function joinFields(fields: CronFields): string {
  return FIELD_NAMES.map((n) => fields[n])
    .filter((v): v is string => v !== undefined)
    .join(' ');
}
