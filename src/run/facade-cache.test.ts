import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  errorBody,
  getRun as get,
  PATIENT,
  policyFile,
  REDIS_URL,
  redisPrefix,
  requireRedis,
  type TestApp,
} from '../../test/helpers.js';
import { projectRoot } from '../paths.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The run facade's result cache and ETags (src/run/facade.ts, src/cache/), through the app. */
describe('the result cache', () => {
  it('serves identical inputs from the cache when cacheTtlSec > 0', async () => {
    const file = await policyFile({ tools: { 'fx-echo': { cacheTtlSec: 60 } } });
    app = await buildTestApp({ POLICY_FILE: file });
    const first = await get(app, 'fx-echo', 'cache me');
    const second = await get(app, 'fx-echo', 'cache me');
    expect(first.json().runtime.cached).toBeUndefined();
    expect(second.json().runtime.cached).toBe(true);
    expect(second.json().result).toEqual(first.json().result);
  });

  it('a hit counts toward the rate limit but takes no compute budget', async () => {
    // A budget of 1 ms: the first run spends it, the hits after it are still answered.
    const tools = { 'fx-echo': { cacheTtlSec: 60, limit: 3, burst: 0, computeBudgetMs: 1 } };
    app = await buildTestApp({ POLICY_FILE: await policyFile({ tools }) });
    expect((await get(app, 'fx-echo', 'budget')).statusCode).toBe(200);
    const hits = [await get(app, 'fx-echo', 'budget'), await get(app, 'fx-echo', 'budget')];
    for (const hit of hits) {
      expect(hit.statusCode).toBe(200);
      expect(hit.json().runtime.cached).toBe(true);
    }
    expect(hits[1]!.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await get(app, 'fx-echo', 'budget');
    expect(errorBody(refused).errorCode).toBe('RATE_LIMITED');
  });

  it('with cacheTtlSec 0 nothing is cached, yet the ETag and 304 work', async () => {
    app = await buildTestApp();
    const first = await get(app, 'fx-echo', 'no cache');
    expect(first.headers['cache-status']).toBeUndefined();
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const second = await get(app, 'fx-echo', 'no cache');
    expect(second.json().runtime.cached).toBeUndefined();
    expect(second.headers.etag).toBe(etag);
    const conditional = await get(app, 'fx-echo', 'no cache', { 'if-none-match': etag });
    expect(conditional.statusCode).toBe(304);
    expect(conditional.body).toBe('');
    // The mode is part of the address: another mode, another ETag.
    const upper = await app.inject({ url: '/api/tools/run?toolId=fx-echo&a=no%20cache&mode=upper' });
    expect(upper.headers.etag).not.toBe(etag);
  });

  it('a result over CACHE_MAX_ENTRY_BYTES is answered but not stored', async () => {
    const tools = { 'fx-big': { cacheTtlSec: 60 } };
    app = await buildTestApp({ POLICY_FILE: await policyFile({ tools }), CACHE_MAX_ENTRY_BYTES: '2048' });
    const big = await get(app, 'fx-big', '4');
    expect(big.statusCode).toBe(200);
    expect(big.headers['cache-status']).toBe('toolhub; fwd=miss; detail=too-large');
    expect((await get(app, 'fx-big', '4')).json().runtime.cached).toBeUndefined();
    const small = await get(app, 'fx-big', '1');
    // No Redis here: stored in this instance's memory, and said so.
    expect(small.headers['cache-status']).toBe('toolhub; fwd=miss; stored; detail=memory');
    expect((await get(app, 'fx-big', '1')).json().runtime.cached).toBe(true);
  });

  it('a conditional batch request with a refused run answers that refusal, not 304', async () => {
    const tools = { 'fx-echo': { limit: 2, burst: 0 } };
    app = await buildTestApp({ POLICY_FILE: await policyFile({ tools }) });
    const runs = [
      { toolId: 'fx-echo', a: 'one' },
      { toolId: 'fx-echo', a: 'two' },
    ];
    const first = await app.inject({ method: 'POST', url: '/api/tools/batch/', payload: { runs } });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const again = await app.inject({
      method: 'POST',
      url: '/api/tools/batch/',
      payload: { runs },
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(429);
    expect(errorBody(again).errorCode).toBe('RATE_LIMITED');
  });

  it("a change of the tool's code changes its version: results of the old code are not served", async () => {
    await requireRedis();
    const dir = join(projectRoot, 'test-artifacts', `cache-version-${process.pid}-${Date.now()}`);
    const folder = join(dir, 'fx-ver');
    await mkdir(folder, { recursive: true });
    const def = relative(folder, join(projectRoot, 'test', 'fixtures', 'fixture-def.js'));
    await writeFile(
      join(folder, 'tool.ts'),
      `import { fixtureTool } from '${def}';\nexport default fixtureTool('fx-ver', 'Test-only: versions');\n`,
    );
    const code = 'export default function run(input: { text: string }) { return { text: input.text }; }\n';
    await writeFile(join(folder, 'run.ts'), code);
    const env = {
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      ...PATIENT,
      EXTRA_TOOL_DIRS: dir,
      POLICY_FILE: await policyFile({ tools: { 'fx-ver': { cacheTtlSec: 60 } } }),
    };
    try {
      // Two apps are two replicas: a result stored by one is a hit on the other, same code.
      const one = await buildTestApp(env);
      expect((await get(one, 'fx-ver', 'v')).headers['cache-status']).toBe(
        'toolhub; fwd=miss; stored; detail=shared',
      );
      await one.close();
      const two = await buildTestApp(env);
      const hit = await get(two, 'fx-ver', 'v');
      expect(hit.json().runtime.cached).toBe(true);
      const before = hit.headers.etag;
      await two.close();
      await writeFile(join(folder, 'run.ts'), `${code}// changed\n`);
      app = await buildTestApp(env);
      const after = await get(app, 'fx-ver', 'v');
      expect(after.json().runtime.cached).toBeUndefined();
      expect(after.headers.etag).not.toBe(before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
