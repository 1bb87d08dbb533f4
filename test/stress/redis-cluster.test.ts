import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyFile } from '../helpers.js';
import { PrivateCluster } from '../private-cluster.js';
import { type Instance, postJson, startInstance, stopInstance } from '../server-process.js';

/**
 * Two hub replicas on a real Redis Cluster (three masters on loopback): limits exact across
 * replicas, and a master killed under load costs no answer (the insurance limiter serves)
 * until the cluster is whole again.
 */
const cluster = new PrivateCluster();
let replicas: Instance[] = [];

beforeAll(async () => {
  await cluster.start();
  const file = await policyFile({
    tools: {
      'qr-code': { limit: 20, burst: 5, maxInFlightPerClient: 1000, maxInFlight: 1000 },
      'token-counter': { limit: 1_000_000, maxInFlightPerClient: 64 },
    },
  });
  const env = { REDIS_CLUSTER_NODES: cluster.nodes, POLICY_FILE: file, REDIS_COMMAND_TIMEOUT_MS: '3000' };
  replicas = await Promise.all([startInstance(env), startInstance(env)]);
}, 120_000);
afterAll(async () => {
  await Promise.all(replicas.map((r) => stopInstance(r)));
  await cluster.stop();
});

const qr = (base: string, i: number) =>
  postJson(`${base}/api/tools/run/`, { toolId: 'qr-code', a: `hello ${i}` });

describe('two replicas on a Redis Cluster', () => {
  it('allow one client exactly limit + burst, across both', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => qr(replicas[i % 2]!.base, i)));
    // Counted in the cluster, never on an instance's own insurance limiter.
    for (const r of replicas) {
      const metrics = await (await fetch(`${r.base}/metrics`)).text();
      expect(metrics.split('\n').filter((l) => l.startsWith('toolhub_limiter_fallbacks_total{'))).toEqual([]);
    }
    expect(answers.filter((a) => a.status === 200)).toHaveLength(25);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
  });

  it('keep serving while a master is killed under load, and return to the cluster', async () => {
    let running = true;
    const statuses: number[] = [];
    const loops = Array.from({ length: 4 }, async (_, i) => {
      while (running) {
        const res = await postJson(`${replicas[i % 2]!.base}/api/tools/run/`, {
          toolId: 'token-counter',
          a: 'load',
        });
        statuses.push(res.status);
      }
    });
    await new Promise((r) => setTimeout(r, 500));
    const victim = cluster.ports[1]!;
    await cluster.kill(victim);
    await new Promise((r) => setTimeout(r, 3000));
    await cluster.startNode(victim);
    await cluster.waitUntilOk();
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${replicas[0]!.base}/readyz`)).json()) as { limiterStore: string })
            .limiterStore,
        {
          timeout: 30_000,
          interval: 500,
        },
      )
      .toBe('redis');
    running = false;
    await Promise.all(loops);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});
