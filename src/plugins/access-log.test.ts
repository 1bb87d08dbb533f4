import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TOOLS, NO_TOOLS, policyFile } from '../../test/helpers.js';
import { buildApp } from '../app.js';

const lines: Record<string, unknown>[] = [];
let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  app = await buildApp({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    toolsDir: NO_TOOLS,
    env: {
      EXTRA_TOOL_DIRS: FIXTURE_TOOLS,
      POOL_THREADS: '1',
      // A loaded machine can stall the loop past the shedding bound; not what this tests.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      POLICY_FILE: await policyFile({ tools: { 'fx-spin': { timeoutMs: 200 } } }),
    },
  });
  await app.ready();
  await app.pool.warmUp();
});
afterAll(async () => {
  await app.close();
});

const access = () => lines.filter((l) => l.msg === 'request completed');

describe('logs an operator can use', () => {
  it('writes client, toolId and errorCode on the access line, and cuts long URLs', async () => {
    await app.inject({ url: '/api/tools/run/?toolId=fx-echo&a=hi', remoteAddress: '192.0.2.7' });
    await app.inject({ url: '/api/tools/run/?toolId=fx-echo&a=bad', remoteAddress: '192.0.2.8' });
    await app.inject({ url: `/api/tools/run/?toolId=${'z'.repeat(5000)}&a=1` });
    const [ok, failed, long] = access().slice(-3);
    expect(ok).toMatchObject({ client: '192.0.2.7', method: 'GET', statusCode: 200, toolId: 'fx-echo' });
    expect(ok).not.toHaveProperty('errorCode');
    expect(failed).toMatchObject({
      client: '192.0.2.8',
      statusCode: 400,
      toolId: 'fx-echo',
      errorCode: 'INVALID_INPUT',
    });
    expect(long).toMatchObject({ statusCode: 400, errorCode: 'INVALID_INPUT' });
    expect(long).not.toHaveProperty('toolId');
    expect((long!.url as string).length).toBeLessThanOrEqual(201);
  });

  it('warns on a TIMEOUT and on the worker that replaces the terminated one', async () => {
    const res = await app.inject({ url: '/api/tools/run/?toolId=fx-spin&a=1' });
    expect(res.statusCode).toBe(504);
    const warn = lines.filter((l) => l.level === 40).map((l) => String(l.msg));
    expect(warn.some((m) => m.includes('passed its deadline'))).toBe(true);
    await expect
      .poll(() => lines.some((l) => l.level === 40 && String(l.msg).includes('worker thread replaced')))
      .toBe(true);
    expect(access().at(-1)).toMatchObject({ toolId: 'fx-spin', errorCode: 'TIMEOUT', statusCode: 504 });
  });
});
