/** Which dialect an expression is written in, when the caller does not name it. */
import type { Dialect } from './tool.js';

/**
 * Auto-detection: `cron(…)` / `rate(…)` is EventBridge; 7 fields with `?` in a day field
 * (Quartz's mark: Unix has neither 7 fields nor a year) Quartz; anything else Unix, as before.
 */
export function detectDialect(expression: string): Dialect {
  const text = expression.trim();
  if (/^(cron|rate)\s*\(/i.test(text)) return 'eventbridge';
  const parts = text.split(/\s+/);
  if (parts.length === 7 && (parts[3] === '?' || parts[5] === '?')) return 'quartz';
  return 'unix';
}

/** Added to the Unix "7 fields" error when the dialect was not named. */
export const QUARTZ_HINT =
  "; a 7-field Quartz expression (with a year) needs '?' in dayOfMonth or dayOfWeek, or name dialect quartz";
