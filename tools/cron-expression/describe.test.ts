import { describe, expect, it } from 'vitest';
import { runTool } from '../_shared/test-helpers.js';
import { describe as describeCron } from './describe.js';
import run from './run.js';
import def from './tool.js';

describe('cron-expression description of the day fields', () => {
  it.each([
    ['0 0 31 4 5', 'At 12:00 AM, on day 31 of the month, or on Friday, only in April'],
    ['0 9 13 * 5', 'At 09:00 AM, on day 13 of the month, or on Friday'],
    ['0 0 1,15 * 1-5', 'At 12:00 AM, on day 1 and 15 of the month, or Monday through Friday'],
    ['0 0 L * 5#3', 'At 12:00 AM, on the last day of the month, or on the third Friday of the month'],
    ['0 0 0 L * 5L', 'At 12:00 AM, on the last day of the month, or on the last Friday of the month'],
    [
      '0 10,11,12 1 * 1,3,5',
      'At 10:00 AM, 11:00 AM and 12:00 PM, on day 1 of the month, or on Monday, Wednesday, and Friday',
    ],
  ])('both day fields restricted: %s says "or"', (expression, text) => {
    expect(describeCron(expression)).toBe(text);
  });

  it.each([
    ['0 0 * * 5', 'At 12:00 AM, only on Friday'],
    ['0 0 ? * 5', 'At 12:00 AM, only on Friday'],
    ['0 0 15 * *', 'At 12:00 AM, on day 15 of the month'],
    ['0 0 15 * ?', 'At 12:00 AM, on day 15 of the month'],
  ])('one day field only: %s keeps cronstrue wording', (expression, text) => {
    expect(describeCron(expression)).toBe(text);
  });

  it('parse mode reports the "or" and lists the Fridays of April (no day 31 exists)', async () => {
    const input = { expression: '0 0 31 4 5', from: '2026-01-01T00:00:00Z', count: 3 };
    const r = (await runTool({ def, run }, input, 'parse')) as Record<string, unknown>;
    expect(r.description).toBe('At 12:00 AM, on day 31 of the month, or on Friday, only in April');
    expect(r.nextRuns).toEqual(['2026-04-03T00:00:00Z', '2026-04-10T00:00:00Z', '2026-04-17T00:00:00Z']);
  });
});
