/** API keys through the app, two app instances on one Redis, and a real process reloading on SIGHUP. */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeysFile,
  buildTestApp,
  errorBody,
  policyFile,
  REDIS_URL,
  redisPrefix,
  type TestApp,
} from './helpers.js';
import { startInstance, stopInstance } from './server-process.js';

const KEY_A = 'th_key-of-team-a';
const KEY_B = 'th_key-of-team-b';
const writeKeys = () =>
  apiKeysFile(
    [
      { id: 'team-a', key: KEY_A, tier: 'pro' },
      { id: 'team-b', key: KEY_B },
    ],
    { pro: { multiplier: 10 } },
  );
const run = (a: TestApp, headers: Record<string, string> = {}, remoteAddress = '10.0.0.1') =>
  a.inject({ url: '/api/tools/run/?toolId=fx-echo&a=hi', headers, remoteAddress });

describe('API keys on', () => {
  let app: TestApp;
  let file: string;
  beforeAll(async () => {
    file = await writeKeys();
    app = await buildTestApp({
      API_KEYS_FILE: file,
      POLICY_FILE: await policyFile({ tools: { 'fx-echo': { limit: 2, burst: 1 } } }),
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses a missing or unknown key with 401, WWW-Authenticate and how to send one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nope' },
      { 'x-api-key': 'nope' },
      // A good key beside another one: which is meant cannot be told.
      { authorization: `Bearer ${KEY_A}`, 'x-api-key': 'nope' },
      { authorization: 'Bearer nope', 'x-api-key': KEY_A },
    ];
    for (const headers of attempts) {
      const res = await run(app, headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(errorBody(res)).toMatchObject({ errorCode: 'INVALID_INPUT' });
      expect(errorBody(res).error).toMatch(/Authorization: Bearer <key>.*x-api-key/);
    }
    for (const url of ['/healthz', '/readyz', '/metrics', '/api/skills-index.json', '/api/openapi.json']) {
      expect((await app.inject({ url })).statusCode, url).toBe(200);
    }
  });

  it('takes a key in either header and counts one bucket per key, across addresses, with the tier numbers', async () => {
    const viaBearer = await run(app, { authorization: `Bearer ${KEY_B}` }, '10.0.0.1');
    expect(viaBearer.statusCode).toBe(200);
    expect(viaBearer.headers['x-ratelimit-limit']).toBe('3');
    const statuses = [viaBearer.statusCode];
    for (const ip of ['10.0.0.2', '10.0.0.3', '10.0.0.4']) {
      statuses.push((await run(app, { 'x-api-key': KEY_B }, ip)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The pro tier multiplies limit and burst: (2 + 1) × 10.
    const pro = await run(app, { 'x-api-key': KEY_A });
    expect(pro.headers['x-ratelimit-limit']).toBe('30');
    expect(pro.json().runtime).toBeDefined();
    // Both headers naming the same key: that key.
    const both = await run(app, { authorization: `Bearer ${KEY_A}`, 'x-api-key': KEY_A });
    expect(both.statusCode).toBe(200);
    expect(both.headers['x-ratelimit-limit']).toBe('30');
  });

  it('names tiers in the metrics, never a key or its id', async () => {
    const text = (await app.inject({ url: '/metrics' })).body;
    expect(text).toMatch(/toolhub_tier_runs_total\{tier="pro",outcome="ok"\} [1-9]/);
    expect(text).not.toContain('team-a');
    expect(text).not.toContain(KEY_A);
  });
});

describe('one key on two instances sharing Redis', () => {
  it('is one bucket', async () => {
    const env = {
      API_KEYS_FILE: await writeKeys(),
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      POLICY_FILE: await policyFile({ tools: { 'fx-echo': { limit: 2, burst: 1 } } }),
    };
    const [one, two] = await Promise.all([buildTestApp(env), buildTestApp(env)]);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await run(i % 2 ? two : one, { 'x-api-key': KEY_B }, `10.1.0.${i}`)).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe('a real process with keys', () => {
  it('logs the key id, never the key, and drops a revoked key on SIGHUP', async () => {
    const file = await writeKeys();
    const hub = await startInstance({ API_KEYS_FILE: file, LOG_LEVEL: 'info' });
    try {
      const call = (key: string) =>
        fetch(`${hub.base}/api/tools/run/?toolId=token-counter&a=hi`, { headers: { 'x-api-key': key } });
      expect((await call(KEY_B)).status).toBe(200);
      execFileSync(process.execPath, [
        'node_modules/tsx/dist/cli.mjs',
        'scripts/keys.ts',
        'revoke',
        'team-b',
        '--file',
        file,
      ]);
      hub.proc.kill('SIGHUP');
      await expect.poll(async () => (await call(KEY_B)).status, { timeout: 10_000 }).toBe(401);
      expect((await call(KEY_A)).status).toBe(200);
      await expect.poll(() => hub.stdout()).toContain('"keyId":"team-a"');
      expect(hub.stdout()).not.toContain(KEY_A);
      expect(hub.stdout()).not.toContain(KEY_B);
    } finally {
      await stopInstance(hub);
    }
  });
});

describe('MCP with keys on', () => {
  it('answers 401 without OAuth metadata, and a client passing the key as a header gets in', async () => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const hub = await startInstance({ API_KEYS_FILE: await writeKeys() });
    try {
      const bare = await fetch(`${hub.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(bare.status).toBe(401);
      const challenge = bare.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer realm="tool-hub"/);
      // No resource_metadata and no protected-resource document: no OAuth to discover.
      expect(challenge).not.toMatch(/resource_metadata/);
      for (const path of [
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/mcp',
      ]) {
        expect((await fetch(`${hub.base}${path}`)).status).toBe(404);
      }
      const client = new Client({ name: 'keyed', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${hub.base}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${KEY_A}` } },
        }),
      );
      try {
        const result = await client.callTool({ name: 'token-counter', arguments: { text: 'hi' } });
        expect(result.isError).toBeFalsy();
      } finally {
        await client.close();
      }
    } finally {
      await stopInstance(hub);
    }
  });
});
