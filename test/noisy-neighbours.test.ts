/**
 * Noisy neighbours inside one tool, on a default instance (the built server, real HTTP):
 * runaway runs of a tool never deny that tool to other clients, from a cold boot and in
 * steady state, and bursts wait their turn instead of being refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, startInstance, stopInstance } from './server-process.js';

// `u`-flag patterns (ajv's default) backtrack even with V8's linear-engine fallback.
// A string field is read as JSON text: the target is the JSON string "aaa…!".
const runaway = {
  schema: { type: 'string', pattern: '^(a|a)+$' },
  target: JSON.stringify(`${'a'.repeat(48)}!`),
};

let hub: Instance | undefined;
beforeAll(async () => {
  // Defaults everywhere; client addresses come from X-Forwarded-For so that one test
  // process can be many clients.
  hub = await startInstance({ TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await stopInstance(hub);
});

async function post(path: string, body: unknown, client: string) {
  const res = await fetch(`${hub!.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Three runaway schema patterns from three clients and 20 good runs from 20 others, at once. */
async function runawaysBesideGoodRuns(round: number) {
  const bad = [1, 2, 3].map((i) => post('/api/schema-validator/', runaway, `10.${round}.0.${i}`));
  // The runaways are on workers before the good runs arrive.
  await new Promise((r) => setTimeout(r, 50));
  const good = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      post('/api/schema-validator/', { schema: { type: 'integer' }, target: i }, `10.${round}.1.${i}`),
    ),
  );
  return { good, bad: await Promise.all(bad) };
}

describe('runaway runs of a tool beside good runs of the same tool', () => {
  it('keeps every good run succeeding right after a cold boot, and in steady state', async () => {
    for (const round of [1, 2]) {
      const { good, bad } = await runawaysBesideGoodRuns(round);
      for (const g of good) {
        expect(g.status, JSON.stringify(g.body)).toBe(200);
        expect(g.body.result).toMatchObject({ valid: true });
      }
      expect(bad.map((b) => b.body.errorCode)).toEqual(['TIMEOUT', 'TIMEOUT', 'TIMEOUT']);
    }
  }, 60_000);
});

describe('bursts wait their turn', () => {
  it('serves 200 different clients sending one cheap request each, all at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post('/api/tools/run/', { toolId: 'token-counter', a: `hello ${i}` }, `10.9.${i >> 8}.${i & 255}`),
      ),
    );
    const failed = answers.filter((a) => a.status !== 200);
    expect(failed.map((a) => ({ status: a.status, ...a.body }))).toEqual([]);
  });

  it("serves one agent's ten parallel calls: four at once, the rest after a bounded wait", async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post('/api/schema-validator/', { schema: { type: 'integer' }, target: i }, '10.8.0.1'),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
  });
});
