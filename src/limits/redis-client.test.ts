import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { FIXTURE_TOOLS, freePort, NO_TOOLS } from '../../test/helpers.js';
import { PrivateRedis } from '../../test/private-redis.js';
import { buildApp } from '../app.js';
import { EVENTS } from '../shared/events.js';
import { LimiterRedis } from './redis-client.js';

const redis = new PrivateRedis();
afterAll(async () => {
  await redis.stop();
});

describe('the limiter store says when it goes away and comes back', () => {
  it('reports down once, then up once, across a Redis restart', async () => {
    await redis.start();
    const limiter = new LimiterRedis(redis.url, 200, 100);
    const changes: string[] = [];
    const quiet = EVENTS.limiterState.subscribe(limiter, ({ state }) => changes.push(state));
    onTestFinished(quiet);
    try {
      await expect.poll(() => limiter.client.status).toBe('ready');
      await redis.stop();
      await expect.poll(() => changes).toEqual(['down']);
      await redis.start();
      await expect.poll(() => changes, { timeout: 15_000 }).toEqual(['down', 'up']);
    } finally {
      await limiter.close();
    }
  });

  it('warns at boot when Redis is not reachable', async () => {
    const lines: string[] = [];
    const app = await buildApp({
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
      toolsDir: NO_TOOLS,
      env: {
        EXTRA_TOOL_DIRS: FIXTURE_TOOLS,
        POOL_THREADS: '1',
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      },
    });
    await app.close();
    expect(lines.join('')).toMatch(/Redis \(REDIS_URL\) is not reachable at boot/);
  });
});
