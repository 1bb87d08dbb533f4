import { readFileSync } from 'node:fs';
import type { Cluster, Redis } from 'ioredis';
import { HubError } from '../errors.js';
import { type Begun, type IdempotencyStore, judge, type KeyRecord, type StoredAnswer } from './store.js';

const BEGIN_LUA = readFileSync(new URL('./begin.lua', import.meta.url), 'utf8');
/** A key's store that does not answer within this is unavailable: the request is refused, not run unguarded. */
const WAIT_MS = 2000;

/** Idempotency-Keys in the hub's Redis, under `<prefix>idem:<scope>`. */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly prefix: string,
  ) {}

  async begin(scope: string, fingerprint: string, pendingMs: number): Promise<Begun> {
    const pending: KeyRecord = { f: fingerprint };
    const found = (await bounded(
      this.redis.eval(BEGIN_LUA, 1, this.key(scope), JSON.stringify(pending), pendingMs),
    )) as string | null;
    return found ? judge(JSON.parse(found) as KeyRecord, fingerprint) : { kind: 'new' };
  }

  async complete(scope: string, fingerprint: string, answer: StoredAnswer, ttlSec: number): Promise<void> {
    const record: KeyRecord = { f: fingerprint, a: answer };
    await bounded(this.redis.set(this.key(scope), JSON.stringify(record), 'EX', ttlSec));
  }

  async abandon(scope: string): Promise<void> {
    await bounded(this.redis.del(this.key(scope)));
  }

  private key(scope: string): string {
    return `${this.prefix}idem:${scope}`;
  }
}

/**
 * A store call, refused after WAIT_MS: with its Redis away the hub cannot tell a retry from
 * a first request, so it answers 503 rather than run a request twice.
 */
async function bounded<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), WAIT_MS);
  });
  try {
    return await Promise.race([call, late]);
  } catch {
    call.catch(() => {});
    throw new HubError('CONCURRENCY_LIMIT', 'the Idempotency-Key store is unavailable; retry shortly', {
      status: 503,
      headers: { 'Retry-After': 2 },
    });
  } finally {
    clearTimeout(timer);
  }
}
