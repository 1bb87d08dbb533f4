import { setTimeout as sleep } from 'node:timers/promises';
import { type HubContext, startHub } from './hub.js';
import { readRss, type ServerProcess, startServer, stopServer } from './processes.js';
import { type Spread, spread } from './stats.js';

/** Idle time before the RSS is read: the boot's garbage is collected, the pool is up. */
const IDLE_MS = 3000;
/** How often the hub's /readyz is asked while it boots. */
const POLL_MS = 5;

export interface BootFigures {
  boots: number;
  /** From spawn to the first 200 of /readyz (the hub, Redis limiter) or to listening (bare fastify). */
  hubMs: Spread;
  bareMs: Spread;
  /** Resident memory after IDLE_MS of idling, bytes. */
  hubRss: Spread;
  bareRss: Spread;
}

/**
 * Boot-to-ready of the hub beside a bare fastify (the reference POST server) in alternating
 * boots, each a fresh process on a quiet machine (before the load scenarios), and the idle RSS
 * of each. The hub runs with the Redis limiter, as the headline scenario does.
 */
export async function measureBoots(count: number, hub: HubContext, refScript: string): Promise<BootFigures> {
  const hubMs: number[] = [];
  const bareMs: number[] = [];
  const hubRss: number[] = [];
  const bareRss: number[] = [];
  const once = async (start: () => Promise<ServerProcess>, ms: number[], rss: number[]) => {
    const t0 = performance.now();
    const server = await start();
    ms.push(performance.now() - t0);
    try {
      await sleep(IDLE_MS);
      const bytes = await readRss(server.pid);
      if (bytes !== null) rss.push(bytes);
    } finally {
      await stopServer(server);
    }
  };
  for (let i = 0; i < count; i++) {
    await once(() => startHub({ redis: true, policy: 'fast' }, hub, POLL_MS), hubMs, hubRss);
    await once(
      () =>
        startServer({
          name: 'bare fastify',
          args: [refScript, 'post'],
          env: { PATH: process.env.PATH ?? '' },
        }),
      bareMs,
      bareRss,
    );
  }
  return {
    boots: count,
    hubMs: spread(hubMs),
    bareMs: spread(bareMs),
    hubRss: spread(hubRss),
    bareRss: spread(bareRss),
  };
}
