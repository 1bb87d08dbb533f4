import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TOOLS, NO_TOOLS, policyFile } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import { redactUrl } from './access-log.js';

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

  it('never writes a key sent in the query string, also past the cut', async () => {
    const secrets = ['S3CRET-api-key-0001', 'S3CRET-tok-0002', 'S3CRET-key-0003', 'S3CRET-enc-0004'];
    await app.inject({
      url: `/api/tools/run/?toolId=fx-echo&a=hi&api_key=${secrets[0]}&access_token=${secrets[1]}&Key=${secrets[2]}&%61pi%4Bey=${secrets[3]}`,
    });
    // A key that straddles the 200-character cut leaves no prefix behind either.
    await app.inject({
      url: `/api/tools/run/?toolId=fx-echo&a=${'x'.repeat(150)}&token=${'S3CRET'.repeat(20)}`,
    });
    const [keys, cut] = access().slice(-2);
    expect(keys!.url).toBe(
      '/api/tools/run/?toolId=fx-echo&a=hi&api_key=[redacted]&access_token=[redacted]&Key=[redacted]&%61pi%4Bey=[redacted]',
    );
    // Refused (the hub reads keys from headers only), and logged without them.
    expect(keys).toMatchObject({ statusCode: 400, errorCode: 'INVALID_INPUT' });
    expect(cut!.url).toContain('&token=[redacted]');
    expect(JSON.stringify(lines)).not.toContain('S3CRET');
  });

  it.each([
    ['/api/x/?key=k1&x-api-key=k2&apikey=k3&token=k4&authorization=k5&password=k6', 'k'],
    ['/api/x/?text=keep&model=gpt-4&keyword=keep&tokens=keep&monkey=keep', null],
    ['/api/x/?key', null],
    ['/api/x/?%E0%A4%A=keep&key=%ZZ', 'ZZ'],
  ])('redacts %s', (url, secret) => {
    const out = redactUrl(url);
    if (secret === null) expect(out).toBe(url);
    else expect(out).not.toContain(`=${secret}`);
    expect(out.split('&')).toHaveLength(url.split('&').length);
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
