import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

const FROM = '2025-03-07T12:00:00Z';
type Result = Record<string, unknown> & { nextRuns: string[] };
const cron = toolRunner(tool, run);
const build = async (fields: unknown, extra: Record<string, unknown> = {}) =>
  (await cron({ fields, from: FROM, ...extra }, 'build')) as Result;

describe('cron-expression build', () => {
  it('builds from an object; unset fields are * and minute defaults to 0', async () => {
    const r = await build({ hour: '*/2', dayOfWeek: '1-5' }, { count: 2 });
    expect(r.expression).toBe('0 */2 * * 1-5');
    expect(r.description).toBe('On the hour, every 2 hours, Monday through Friday');
    expect(r.nextRuns).toEqual(['2025-03-07T14:00:00Z', '2025-03-07T16:00:00Z']);
  });

  it('accepts JSON text, integers, lists and a seconds field', async () => {
    const r = await build('{"second": 30, "minute": [0, 30], "hour": 9, "month": "JAN-MAR"}', { count: 1 });
    expect(r.expression).toBe('30 0,30 9 * JAN-MAR *');
    expect(r.hasSeconds).toBe(true);
    expect(r.nextRuns).toEqual(['2025-03-08T09:00:30Z']);
  });

  it('an empty object means hourly', async () => {
    expect((await build({})).expression).toBe('0 * * * *');
  });

  it('round-trips: parsing the built expression gives the same fields', async () => {
    const fields = { minute: '5', hour: '4', dayOfMonth: '1-7', month: '*/3', dayOfWeek: '*' };
    const built = await build(fields);
    const parsed = (await cron({ expression: built.expression, from: FROM }, 'parse')) as Result;
    expect(parsed.fields).toEqual(fields);
    expect(parsed.nextRuns).toEqual(built.nextRuns);
  });

  it('computes runs in the timezone', async () => {
    const r = await build({ minute: 30, hour: 2 }, { timezone: 'America/New_York', count: 2 });
    expect(r.nextRuns).toEqual(['2025-03-08T02:30:00-05:00', '2025-03-09T03:30:00-04:00']);
  });

  it.each([
    [{ minute: 61 }, 'minute field: 61 is out of range 0-59'],
    [{ hour: '25' }, 'hour field: 25 is out of range 0-23'],
    [{ dayOfWeek: 'FUNDAY' }, 'dayOfWeek field:'],
    [{ dayOfMonth: 30, month: 2 }, 'day 30 never occurs in month 2'],
    [{ minute: 1.5 }, 'fields.minute: 1.5 is not a non-negative integer'],
    [{ minute: -1 }, 'fields.minute: -1 is not a non-negative integer'],
    [{ minute: '' }, 'fields.minute is empty'],
    [{ minute: [] }, 'fields.minute must list 1 to 60 values'],
    [{ minute: [[1]] }, 'nested list'],
    [{ minute: true }, 'must be a string, an integer or a list'],
    [{ hour: '1 2' }, 'hour field:'],
    [{ minutes: '0' }, "unknown key 'minutes'"],
    // A list is refused by the input schema; as JSON text it reaches the tool.
    [[1, 2], 'fields must be object,string'],
    ['[1, 2]', 'fields must be a JSON object'],
    ['not json', 'fields is not valid JSON'],
    [undefined, 'fields must be a JSON object'],
  ])('refuses %j with INVALID_INPUT', async (fields, message) => {
    await expectToolError(build(fields), 'INVALID_INPUT', message);
  });

  it('bounds the length of one field', async () => {
    await expectToolError(build({ minute: '0,'.repeat(150) }), 'INVALID_INPUT', /longer than 200 characters/);
  });
});
