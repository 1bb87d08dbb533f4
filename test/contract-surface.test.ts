import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingFrom, type Surface, surfaceOf } from './contract-surface.js';
import { buildTestApp, REDIS_URL, redisPrefix, requireRedis, type TestApp } from './helpers.js';

/**
 * The redesign of the limiter and the scheduler changed no public name: the metrics scrape
 * (families, types, labels) and the OpenAPI document (operations, parameters, bodies,
 * statuses, schemas' properties) hold everything they held before it, additions apart.
 * The baseline (test/fixtures/contract-baseline.json) was taken from the build before the
 * redesign (commit a7cca89) with Redis, after one run; regenerate it only for a deliberate
 * breaking change, and say so in the changelog.
 */
const baseline = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'contract-baseline.json'), 'utf8'),
) as Surface;

let app: TestApp;
beforeAll(async () => {
  await requireRedis();
  app = await buildTestApp({ REDIS_URL, REDIS_PREFIX: redisPrefix() }, true);
});
afterAll(async () => {
  await app?.close();
});

describe('the public surface against the baseline', () => {
  it('keeps every metric, operation and schema property (additions allowed)', async () => {
    const run = await app.inject({
      method: 'POST',
      url: '/api/tools/run/',
      payload: { toolId: 'token-counter', a: 'hi' },
    });
    expect(run.statusCode).toBe(200);
    const scrape = (await app.inject({ url: '/metrics' })).body;
    const doc = (await app.inject({ url: '/api/openapi.json' })).json();
    expect(missingFrom(baseline, surfaceOf(scrape, doc))).toEqual([]);
  });

  it('fails on a removal (the comparison can fail)', () => {
    const fewer: Surface = structuredClone(baseline);
    const [name] = Object.keys(fewer.metrics);
    delete fewer.metrics[name!];
    fewer.operations['POST /api/tools/run/']!.statuses.pop();
    expect(missingFrom(baseline, fewer)).toHaveLength(2);
  });
});
