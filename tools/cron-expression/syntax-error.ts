/** A problem in the expression itself (as opposed to a bad option): reported as `valid: false`. */
import type { FieldName } from './cron-fields.js';

export class CronSyntaxError extends Error {
  constructor(
    message: string,
    readonly field: FieldName | null,
  ) {
    super(message);
    this.name = 'CronSyntaxError';
  }
}
