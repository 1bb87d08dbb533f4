import type { InjectOptions } from 'light-my-request';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.js';
import { boundMessage, ECHO_MAX_CHARS, MESSAGE_MAX_CHARS, quote } from './quote.js';

describe('echoed values are bounded', () => {
  it('quotes short values whole and cuts long ones', () => {
    expect(quote('abc')).toBe("'abc'");
    const long = quote('x'.repeat(5000));
    expect(long).toBe(`'${'x'.repeat(ECHO_MAX_CHARS)}…'`);
    // A cut between the halves of a surrogate pair drops the lone half.
    expect(quote(`${'x'.repeat(99)}😀`)).toBe(`'${'x'.repeat(99)}…'`);
    expect(boundMessage('y'.repeat(5000))).toHaveLength(MESSAGE_MAX_CHARS);
  });

  it.each([
    [
      'a 200 kB toolId',
      { method: 'POST', url: '/api/tools/run/', payload: { toolId: 'x'.repeat(200_000), a: '1' } },
    ],
    [
      'a 200 kB mode',
      {
        method: 'POST',
        url: '/api/tools/run/',
        payload: { toolId: 'fx-echo', a: '1', mode: 'm'.repeat(200_000) },
      },
    ],
    [
      'a long unknown field',
      {
        method: 'POST',
        url: '/api/tools/run/',
        payload: { toolId: 'fx-echo', a: '1', ['f'.repeat(50_000)]: 1 },
      },
    ],
    ['a long unknown route', { method: 'GET', url: `/api/${'r'.repeat(8000)}` }],
    ['a long descriptor name', { method: 'GET', url: `/api/tools/${'d'.repeat(150)}.json` }],
  ] as const)('%s comes back cut', async (_name, request) => {
    const app = await appOnce();
    const res = await app.inject(request as InjectOptions);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const { error } = res.json() as { error: string };
    expect(error.length).toBeLessThanOrEqual(MESSAGE_MAX_CHARS);
    expect(error).toMatch(/…'/);
    expect(res.body.length).toBeLessThan(2000);
  });
});

let shared: Awaited<ReturnType<typeof buildTestApp>> | undefined;
async function appOnce() {
  shared ??= await buildTestApp();
  return shared;
}
afterAll(async () => {
  await shared?.close();
});
