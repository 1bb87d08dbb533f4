import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyFile } from '../helpers.js';
import { PrivateCluster } from '../private-cluster.js';
import { type Instance, startInstance, stopInstance } from '../server-process.js';

/**
 * A busy client through a Redis Cluster failover (docs/operations.md, "Redis and its failure
 * modes"): one client sends 50 runs a second of one tool, open loop, whatever the answers,
 * with the default waits (CAP_WAIT_MS 10 s) and caps; the master holding its keys is killed
 * with SIGKILL 8 s in, on a cluster that promotes a replica after a second. Decisions that
 * timed out around the kill still ran in Redis and took leases no release would name: they
 * held the client's slots for a lease's whole life (~40 s), so every run waited its 10 s in
 * line and was refused to the end of the load. The client must be served again within a few
 * seconds of the promotion.
 */
const TOOL = 'token-counter';
const RATE_PER_SEC = 50;
const KILL_AFTER_MS = 8000;
/** The load goes on this long after the promotion. */
const AFTER_PROMOTION_MS = 15_000;
/**
 * From the promotion, the runs sent after this are all served: the leases a failed decision
 * may have taken are given back once the new master answers (a lease whose release was lost
 * with the old master frees its slot within LEASE_TTL_MS, 10 s, but holds one slot of the
 * client's 4 meanwhile); the rest is margin for a loaded machine.
 */
const SERVED_WITHIN_MS = 3000;
const KEY = `toolhub:lim:{127.0.0.1}:${TOOL}`;

interface Answer {
  sentAt: number;
  status: number;
  code?: string;
}

/** Sends one run every 1000 / RATE_PER_SEC ms until stopped; every answer is kept. */
class OpenLoad {
  readonly answers: Answer[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout;

  constructor(base: string) {
    this.timer = setInterval(() => {
      const sentAt = Date.now();
      const p = fetch(`${base}/api/tools/run/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ toolId: TOOL, a: `x${sentAt}` }),
      })
        .then(async (res) => {
          const body = (await res.json()) as { errorCode?: string };
          this.answers.push({
            sentAt,
            status: res.status,
            ...(body.errorCode ? { code: body.errorCode } : {}),
          });
        })
        .catch(() => {
          this.answers.push({ sentAt, status: 0 });
        })
        .finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }, 1000 / RATE_PER_SEC);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.inFlight]);
  }
}

function summary(answers: Answer[], from: number): string {
  const byStatus: Record<string, number> = {};
  for (const a of answers) {
    const k = `${a.status}${a.code ? ` ${a.code}` : ''}`;
    byStatus[k] = (byStatus[k] ?? 0) + 1;
  }
  const bySecond: string[] = [];
  const sorted = [...answers].sort((a, b) => a.sentAt - b.sentAt);
  for (const a of sorted) {
    const s = Math.floor((a.sentAt - from) / 1000);
    bySecond[s] = (bySecond[s] ?? '') + (a.status === 200 ? '.' : a.status === 0 ? '0' : 'x');
  }
  return `${JSON.stringify(byStatus)}\n${bySecond.map((line, s) => `${s}s ${line ?? ''}`).join('\n')}`;
}

describe('a busy client through a Redis Cluster failover', () => {
  const cluster = new PrivateCluster({ replicas: 1, nodeTimeoutMs: 1000 });
  let hub: Instance | undefined;
  beforeAll(async () => {
    await cluster.start();
    // The rate limit and budget out of the way: the caps and the waits are the defaults.
    const policy = await policyFile({
      tools: { [TOOL]: { limit: 1_000_000, computeBudgetMs: 1_000_000_000 } },
    });
    hub = await startInstance({ REDIS_CLUSTER_NODES: cluster.nodes, POLICY_FILE: policy });
  }, 120_000);
  afterAll(async () => {
    await stopInstance(hub);
    await cluster.stop();
  });

  it('is served again within seconds of the promotion', async () => {
    const started = Date.now();
    const load = new OpenLoad(hub!.base);
    let promotedAt = 0;
    try {
      await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
      const victim = await cluster.masterOf(KEY);
      await cluster.kill(victim);
      await cluster.waitForFailover(victim, KEY);
      promotedAt = Date.now();
      await new Promise((r) => setTimeout(r, AFTER_PROMOTION_MS));
    } finally {
      await load.stop();
    }
    const report = `promoted ${promotedAt - started} ms in\n${summary(load.answers, started)}`;
    console.info(report);
    const late = load.answers.filter((a) => a.sentAt >= promotedAt + SERVED_WITHIN_MS);
    expect(late.length, report).toBeGreaterThan(100);
    expect(late.filter((a) => a.status !== 200).length, report).toBe(0);
  }, 180_000);
});
