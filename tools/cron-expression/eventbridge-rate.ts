/**
 * EventBridge `rate(value unit)`: a period, not clock times, so it never reaches cron-parser
 * (schedule.ts rateRuns counts it from the start date).
 */
import { quote } from '#tool-kit';
import { fail } from './dialect-syntax.js';

/** Largest rate() value: 50 runs of a million days stay inside the dates JavaScript can write. */
export const MAX_RATE_VALUE = 1_000_000;

export const RATE_UNITS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
export type RateUnit = keyof typeof RATE_UNITS;

export interface RateSchedule {
  kind: 'rate';
  dialect: 'eventbridge';
  expression: string;
  value: number;
  /** The unit as written: minute, minutes, hour, hours, day or days. */
  unit: string;
  base: RateUnit;
  periodMs: number;
}

export function parseRate(expression: string, inner: string): RateSchedule {
  const m = /^(\S+)\s+(\S+)$/.exec(inner.trim());
  if (m === null) fail(null, `rate() takes a value and a unit, e.g. rate(5 minutes); got ${expression}`);
  const [, valueText = '', unit = ''] = m as RegExpExecArray;
  if (!/^\d{1,7}$/.test(valueText) || Number(valueText) < 1 || Number(valueText) > MAX_RATE_VALUE) {
    fail(null, `rate value ${quote(valueText)} must be a whole number from 1 to ${MAX_RATE_VALUE}`);
  }
  const value = Number(valueText);
  const base = unit.replace(/s$/, '') as RateUnit;
  if (!(base in RATE_UNITS) || !/^(minute|hour|day)s?$/.test(unit)) {
    fail(null, `rate unit ${quote(unit)} is not supported; use minute(s), hour(s) or day(s)`);
  }
  const plural = unit.endsWith('s');
  if (value === 1 && plural) fail(null, `rate(1 ${unit}) must use the singular: rate(1 ${base})`);
  if (value > 1 && !plural) fail(null, `rate(${value} ${unit}) must use the plural: rate(${value} ${base}s)`);
  return {
    kind: 'rate',
    dialect: 'eventbridge',
    expression,
    value,
    unit,
    base,
    periodMs: value * RATE_UNITS[base],
  };
}
