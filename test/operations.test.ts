import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp({ POOL_THREADS: '2' });
  await app.inject({ url: '/api/tools/run?toolId=fx-echo&a=1&source=web' });
  await app.inject({ url: '/api/tools/run?toolId=fx-echo&a=bad' });
});
afterAll(async () => {
  await app.close();
});

describe('health', () => {
  it('/healthz says alive', async () => {
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, status: 'alive' });
  });

  it('/readyz reports the pool and the in-process store', async () => {
    const res = await app.inject({ url: '/readyz/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      status: 'ready',
      limiterStore: 'memory',
      pool: { threads: 2, slowThreads: 1, maxWorkers: 13, workers: 5, held: 0 },
    });
  });
});

describe('/metrics', () => {
  it('exposes the hub instruments in Prometheus text format', async () => {
    const res = await app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toContain(
      'toolhub_runs_total{tool="fx-echo",surface="runtime",source="web",outcome="ok"} 1',
    );
    expect(text).toContain(
      'toolhub_runs_total{tool="fx-echo",surface="runtime",source="api",outcome="INVALID_INPUT"} 1',
    );
    for (const name of [
      'toolhub_run_duration_seconds_bucket',
      'toolhub_queue_wait_seconds_bucket',
      'toolhub_rate_limited_total',
      'toolhub_worker_restarts_total',
      'toolhub_limiter_fallbacks_total',
      'toolhub_http_request_duration_seconds_bucket',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text).toContain(name);
    }
    expect(text).toMatch(/^toolhub_pool_threads 2$/m);
    expect(text).toMatch(/^toolhub_pool_slow_threads 1$/m);
    expect(text).toMatch(/^toolhub_pool_max_workers 13$/m); // (2 + 1) + (1 + 1) + 4 overflow each
    expect(text).toMatch(/^toolhub_pool_workers 5$/m); // 2 main + 1 slow, a warm spare each
    expect(text).toMatch(/^toolhub_pool_held_runs 0$/m);
    expect(text).toMatch(/^toolhub_pool_queue_depth 0$/m);
    expect(text).toMatch(/^toolhub_pool_utilization [0-9.e-]+$/m);
    expect(text).toMatch(/^toolhub_limiter_store_degraded 0$/m);
    expect(text).toMatch(
      /toolhub_http_request_duration_seconds_count\{method="GET",route="\/api\/tools\/run\/",status_code="200"\} 1/,
    );
  });
});
