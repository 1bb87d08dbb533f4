import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool, { MAX_COUNT, MAX_EXPRESSION_CHARS } from './tool.js';

/** What parse mode refuses: input the schema refuses, and what only the tool can tell. */
const FROM = '2025-03-07T12:00:00Z';
type Result = Record<string, unknown> & { timezone: string };
const cron = toolRunner(tool, run);
const parse = async (input: Record<string, unknown>) =>
  (await cron({ from: FROM, ...input }, 'parse')) as Result;

describe('cron-expression input', () => {
  it('refuses a missing, empty or oversize expression with INVALID_INPUT', async () => {
    // A number is no wrong type (the schema reads 42 as the text "42"); a list is.
    for (const expression of [undefined, '', '   ', [42], '* '.repeat(200)]) {
      await expectToolError(parse({ expression }), 'INVALID_INPUT', /^expression /);
    }
    await expectToolError(parse({ expression: '   ' }), 'INVALID_INPUT', 'expression is required');
    const long = '*'.repeat(MAX_EXPRESSION_CHARS + 1);
    await expectToolError(
      parse({ expression: long }),
      'INVALID_INPUT',
      `more than ${MAX_EXPRESSION_CHARS} characters`,
    );
    // Exactly at the 256-character limit the expression is still accepted.
    const list = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
    const expression = `${list(60)} ${list(29)} 10 11 * *`;
    expect(expression).toHaveLength(256);
    expect((await parse({ expression })).valid).toBe(true);
  });

  it('refuses an unknown timezone, naming it', async () => {
    const unknown = parse({ expression: '* * * * *', timezone: 'Mars/Olympus_Mons' });
    await expectToolError(unknown, 'INVALID_INPUT', "'Mars/Olympus_Mons'");
  });

  it('canonicalises the timezone name and bounds count and from', async () => {
    expect((await parse({ expression: '0 0 * * *', timezone: 'asia/tokyo', count: 0 })).timezone).toBe(
      'Asia/Tokyo',
    );
    expect((await parse({ expression: '0 0 * * *', timezone: '' })).timezone).toBe('UTC');
    const counts: [unknown, string][] = [
      [-1, 'count must be >= 0'],
      [MAX_COUNT + 1, `count must be <= ${MAX_COUNT}`],
      [2.5, 'count must be integer'],
      ['many', 'count must be integer'],
    ];
    for (const [count, message] of counts) {
      await expectToolError(parse({ expression: '* * * * *', count }), 'INVALID_INPUT', message);
    }
    // Not a date-time, or a day its month does not have: the schema's format refuses it.
    for (const from of ['yesterday', '2025-03-07', '2025-13-01T00:00:00Z', '2025-02-30T00:00:00Z']) {
      await expectToolError(
        parse({ expression: '* * * * *', from }),
        'INVALID_INPUT',
        'from must match format',
      );
    }
    // A date-time the format allows but Date may read otherwise: the tool's own stricter form.
    for (const from of ['2025-03-07 12:00:00Z', '2025-03-07T12:00:00+0100', '2025-03-07T23:59:60Z']) {
      await expectToolError(
        parse({ expression: '* * * * *', from }),
        'INVALID_INPUT',
        /from must be an ISO 8601/,
      );
    }
  });

  it('refuses an unknown mode with UNSUPPORTED_OPTION', async () => {
    await expectToolError(cron({ expression: '* * * * *' }, 'explain'), 'UNSUPPORTED_OPTION', 'parse, build');
  });
});
