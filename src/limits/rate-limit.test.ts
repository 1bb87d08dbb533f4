import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it, onTestFinished } from 'vitest';
import { REDIS_URL, requireRedis } from '../../test/helpers.js';
import { EVENTS } from '../shared/events.js';
import { InsuredRedisLimiter } from './rate-limit.js';
import { LimiterRedis } from './redis-client.js';

describe('the insured Redis limiter (a private hook of rate-limiter-flexible)', () => {
  it('is told of a store error before the insurance answers', async () => {
    await requireRedis();
    const health = new LimiterRedis(REDIS_URL, 200);
    const reasons: string[] = [];
    onTestFinished(EVENTS.limiterFallback.subscribe(health, ({ reason }) => reasons.push(reason)));
    await new Promise((resolve) => health.client.once('ready', resolve));
    const limiter = new InsuredRedisLimiter(health, {
      storeClient: health.client,
      rejectIfRedisNotReady: true,
      points: 5,
      duration: 60,
      keyPrefix: `toolhub-test:${process.pid}:rl`,
      insuranceLimiter: new RateLimiterMemory({ points: 5, duration: 60 }),
    });
    health.client.disconnect(); // the store now fails every command
    const res = await limiter.consume('client');
    expect(res.remainingPoints).toBe(4); // counted by the insurance limiter
    expect(reasons.some((r) => r.startsWith('rate limiter:'))).toBe(true);
  });
});
