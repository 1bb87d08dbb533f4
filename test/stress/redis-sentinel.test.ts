import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, policyFile, requireRedis } from '../helpers.js';
import { PrivateRedis } from '../private-redis.js';
import { type Instance, postJson, startInstance, stopInstance } from '../server-process.js';

/** The hub finds its Redis through a real Sentinel (`redis-server --sentinel`) and counts there. */
const master = new PrivateRedis();
let sentinel: ChildProcess | undefined;
let sentinelPort = 0;
let hub: Instance | undefined;

beforeAll(async () => {
  await master.start();
  sentinelPort = await freePort();
  const conf = join(mkdtempSync(join(tmpdir(), 'toolhub-sentinel-')), 'sentinel.conf');
  writeFileSync(
    conf,
    `port ${sentinelPort}\nbind 127.0.0.1\nsentinel monitor hubmaster 127.0.0.1 ${master.port} 1\n`,
  );
  sentinel = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
  for (let i = 0; ; i++) {
    try {
      await requireRedis(`redis://127.0.0.1:${sentinelPort}`);
      break;
    } catch (err) {
      if (i > 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const file = await policyFile({ tools: { 'qr-code': { limit: 3, burst: 1 } } });
  hub = await startInstance({
    REDIS_SENTINELS: `127.0.0.1:${sentinelPort}`,
    REDIS_SENTINEL_NAME: 'hubmaster',
    POLICY_FILE: file,
  });
}, 60_000);
afterAll(async () => {
  await stopInstance(hub);
  sentinel?.kill('SIGKILL');
  await master.stop();
});

describe('Redis behind Sentinel', () => {
  it('counts the limits in the master the Sentinel names', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await postJson(`${hub!.base}/api/tools/run/`, { toolId: 'qr-code', a: `x${i}` })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const { Redis } = await import('ioredis');
    const direct = new Redis(master.url);
    try {
      expect((await direct.keys('toolhub:lim:{*}:qr-code')).length).toBeGreaterThan(0);
    } finally {
      direct.disconnect();
    }
  });
});
