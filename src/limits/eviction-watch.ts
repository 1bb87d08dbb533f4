import type { Cluster, Redis } from 'ioredis';
import { EVENTS } from '../shared/events.js';
import type { LimiterRedis } from './redis-client.js';

/** The one maxmemory-policy that never evicts a key: every limiter key has a TTL, so every volatile-* and allkeys-* policy can. */
export const SAFE_POLICY = 'noeviction';

/** The first wait before reading again after a failed read. */
const RETRY_FIRST_MS = 1000;

/** What the last read of the limiter's Redis found. */
export interface EvictionState {
  /** maxmemory-policy by node address: the one Redis, or every master of a Cluster. */
  policies: ReadonlyMap<string, string>;
  /** A node's policy can evict limit keys. */
  evictable: boolean;
}

/** The policy in an `INFO memory` reply; undefined when the reply has none. */
export function policyOf(info: string): string | undefined {
  return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
}

/**
 * Reads the eviction policy of the limiter's Redis (docs/operations.md, "Redis and its
 * failure modes"): when asked (`check()`, at boot), on every reconnect (a Sentinel failover
 * can land on a node configured otherwise), on a Cluster's new node or slot refresh (a
 * promoted replica), and every `intervalMs` (a `CONFIG SET` changes it without a reconnect).
 * It reads `INFO memory`, which a managed Redis answers where CONFIG is disabled, on every
 * master of a Cluster. A change, the first read included, is published on
 * EVENTS.limiterEviction; a read that fails changes nothing, is tried again shortly, and never
 * counts against the limiter's breaker.
 */
export class EvictionWatch {
  private last: EvictionState | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private readonly timer: NodeJS.Timeout;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs = RETRY_FIRST_MS;
  private readonly quiet: () => void;

  constructor(
    private readonly redis: LimiterRedis,
    private readonly intervalMs = 60_000,
  ) {
    const read = () => void this.check();
    const client = redis.client;
    const events = redis.cluster ? ['ready', '+node', 'refresh'] : ['ready'];
    for (const event of events) client.on(event, read);
    this.quiet = () => {
      for (const event of events) client.off(event, read);
    };
    this.timer = setInterval(read, intervalMs);
    this.timer.unref();
  }

  /** The last state read; null until the limiter's Redis has answered once. */
  get state(): EvictionState | null {
    return this.last;
  }

  /** Reads the policy now (a read already under way is followed by one more); never rejects. */
  check(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.read().finally(() => {
      this.reading = null;
      if (this.again) {
        this.again = false;
        void this.check();
      }
    });
    return this.reading;
  }

  private async read(): Promise<void> {
    const client = this.redis.client;
    const nodes: Redis[] = this.redis.cluster ? (client as Cluster).nodes('master') : [client as Redis];
    if (nodes.length === 0) return;
    let replies: [string, string | undefined][];
    try {
      replies = await Promise.all(
        nodes.map(
          async (n) => [addressOf(n), policyOf(await n.info('memory'))] as [string, string | undefined],
        ),
      );
    } catch {
      this.retry();
      return;
    }
    this.retryMs = RETRY_FIRST_MS;
    const policies = new Map<string, string>();
    for (const [address, policy] of replies) {
      if (policy === undefined) return;
      policies.set(address, policy);
    }
    const state = { policies, evictable: [...policies.values()].some((p) => p !== SAFE_POLICY) };
    if (this.last && sameState(this.last, state)) return;
    this.last = state;
    EVENTS.limiterEviction.publish({ source: this.redis, ...state });
  }

  /**
   * A failed read (a timeout while the boot keeps the event loop busy, a node away) is read
   * again sooner than the next tick: after 1 s, doubling up to the interval.
   */
  private retry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.check();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(2 * this.retryMs, this.intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.quiet();
  }
}

/** The distinct policies of a state, for a log line or /readyz (`noeviction`, or `noeviction, allkeys-lru`). */
export function policyNames(state: EvictionState): string {
  return [...new Set(state.policies.values())].sort().join(', ');
}

function sameState(a: EvictionState, b: EvictionState): boolean {
  if (a.policies.size !== b.policies.size) return false;
  for (const [address, policy] of a.policies) if (b.policies.get(address) !== policy) return false;
  return true;
}

/** The node's address as connected (Sentinel resolves it at connect time), else as configured. */
function addressOf(node: Redis): string {
  const stream = node.stream as { remoteAddress?: string; remotePort?: number } | undefined;
  if (stream?.remoteAddress) return `${stream.remoteAddress}:${stream.remotePort}`;
  return `${node.options.host}:${node.options.port}`;
}
