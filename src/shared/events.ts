import { type Channel, channel } from 'node:diagnostics_channel';

/**
 * What the hub's parts announce, on `node:diagnostics_channel` (docs/architecture.md,
 * "Events"): the pool and the limiter's store publish, and the log and the metrics subscribe,
 * so no part overwrites another's callback and the order plugins register in does not matter.
 * Channels are process-wide: each message names its `source` (the pool or the store that
 * sent it), and a subscriber hears only its own source's, so several hubs in one process
 * (the tests) keep apart. An operator's tooling may subscribe to the same names.
 */
class HubChannel<M extends { source: object }> {
  private readonly ch: Channel;

  constructor(readonly name: string) {
    this.ch = channel(name);
  }

  publish(message: M): void {
    if (this.ch.hasSubscribers) this.ch.publish(message);
  }

  /** Hears the messages of `source` only; returns the unsubscribe. */
  subscribe(source: object, listener: (message: M) => void): () => void {
    const own = (message: unknown) => {
      if ((message as M).source === source) listener(message as M);
    };
    this.ch.subscribe(own);
    return () => {
      this.ch.unsubscribe(own);
    };
  }
}

export const EVENTS = {
  /** A worker was terminated (a deadline, its heap) or died, and is replaced. */
  workerRestart: new HubChannel<{ source: object }>('toolhub:pool:worker-restart'),
  /** A worker thread reported an error. */
  workerError: new HubChannel<{ source: object; err: unknown }>('toolhub:pool:worker-error'),
  /** A batch of `runs` runs was sent to a worker. */
  batchSent: new HubChannel<{ source: object; runs: number }>('toolhub:pool:batch-sent'),
  /** A limiter call was served in-process instead of by Redis, and why. */
  limiterFallback: new HubChannel<{ source: object; reason: string }>('toolhub:limiter:fallback'),
  /** The limiter's store went away (`down`) or serves again (`up`). */
  limiterState: new HubChannel<{ source: object; state: 'up' | 'down'; reason: string }>(
    'toolhub:limiter:state',
  ),
  /**
   * The limiter's Redis was read with another eviction policy than before (its first read
   * included): `policies` by node address, `evictable` when one of them can evict limit keys.
   */
  limiterEviction: new HubChannel<{
    source: object;
    policies: ReadonlyMap<string, string>;
    evictable: boolean;
  }>('toolhub:limiter:eviction'),
};
