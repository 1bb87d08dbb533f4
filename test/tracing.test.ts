/**
 * Traces (docs/operations.md, "Traces") from a real hub process to a real OTLP receiver:
 * one runtime POST with a caller's `traceparent` is one trace of the HTTP, admission,
 * Redis, pool and worker spans, parented as the hops are; an MCP tools/call continues the
 * trace its `_meta.traceparent` names; a job and its webhook continue the submitter's trace;
 * /metrics in OpenMetrics carries exemplars with the trace ids; the access log names them.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENT, policyFile, REDIS_URL, redisPrefix, requireRedis } from './helpers.js';
import { parseOpenMetrics } from './openmetrics.js';
import { OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';
import { promtool } from './promtool.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';
import { newSecret, type Receiver, startReceiver } from './webhook-receiver.js';

const SECRET = newSecret();
/** A caller's trace and span ids, new for each call (W3C trace context: 32 and 16 hex digits). */
const ids = () => ({
  trace: crypto.getRandomValues(new Uint8Array(16)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), ''),
  span: crypto.getRandomValues(new Uint8Array(8)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), ''),
});
const traceparent = (c: { trace: string; span: string }) => `00-${c.trace}-${c.span}-01`;

/** The span named `name` (or starting with it) of a trace; fails naming what the trace has. */
function one(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((s) => s.name === name || s.name.startsWith(`${name} `));
  if (found.length !== 1)
    throw new Error(`${found.length} spans named ${name} in ${spans.map((s) => s.name)}`);
  return found[0]!;
}
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((s) => s.parentSpanId === parent.spanId);

describe('traces to an OTLP receiver (http/protobuf)', () => {
  let otlp: OtlpReceiver;
  let hub: Instance | undefined;
  let hooks: Receiver;
  beforeAll(async () => {
    await requireRedis();
    otlp = await new OtlpReceiver().start();
    hooks = await startReceiver([SECRET]);
    const policy = await policyFile({ tools: { 'regex-tester': { timeoutMs: 100 } } });
    hub = await startInstance({
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      ...PATIENT,
      POLICY_FILE: policy,
      LOG_LEVEL: 'info',
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  }, 60_000);
  afterAll(async () => {
    await stopInstance(hub);
    await otlp?.stop();
    await hooks?.close();
  });

  const trace = (id: string) => otlp.spans.filter((s) => s.traceId === id);

  it('follows a runtime POST from the HTTP edge through admission, Redis, the pool and the worker', async () => {
    const caller = ids();
    const res = await fetch(`${hub!.base}/api/tools/run/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: traceparent(caller) },
      body: JSON.stringify({ toolId: 'token-counter', a: 'a secret input text' }),
    });
    expect(res.status).toBe(200);
    await otlp.waitFor(() => trace(caller.trace).some((s) => s.name === 'POST /api/tools/run/'));
    await otlp.waitFor(() => trace(caller.trace).some((s) => s.name === 'toolhub.worker.run'));
    const spans = trace(caller.trace);
    expect(otlp.contentTypes).toContain('application/x-protobuf');
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['tool-hub']));

    const http = one(spans, 'POST /api/tools/run/');
    expect(http.parentSpanId).toBe(caller.span);
    expect(http.kind).toBe(2); // SERVER
    expect(http.attributes).toMatchObject({
      'http.route': '/api/tools/run/',
      'http.response.status_code': 200,
      'toolhub.tool': 'token-counter',
      'toolhub.surface': 'runtime',
      'toolhub.tier': 'none',
    });
    const run = one(spans, 'toolhub.run token-counter');
    // The run hangs under the request.
    expect(run.parentSpanId).toBe(http.spanId);
    expect(run.attributes).toMatchObject({ 'toolhub.surface': 'runtime', 'toolhub.outcome': 'ok' });
    const admission = one(spans, 'toolhub.admission');
    expect(admission.parentSpanId).toBe(run.spanId);
    expect(admission.attributes).toMatchObject({
      'toolhub.limits.decision': 'admitted',
      'toolhub.limits.store': 'redis',
    });
    const redis = childrenOf(spans, admission).filter((s) => s.attributes['db.system.name'] === 'redis');
    expect(redis.length).toBeGreaterThan(0);
    const pool = one(spans, 'toolhub.pool token-counter');
    expect(pool.parentSpanId).toBe(run.spanId);
    const queue = one(spans, 'toolhub.pool.queue');
    const worker = one(spans, 'toolhub.worker.run');
    expect([queue.parentSpanId, worker.parentSpanId]).toEqual([pool.spanId, pool.spanId]);
    // The worker's span starts when its queue wait ends, and lies within the pool's.
    expect(worker.startNs).toBe(queue.endNs);
    expect(worker.startNs >= pool.startNs && worker.endNs <= pool.endNs + 1_000_000n).toBe(true);
    expect(worker.status.code).toBe(0);
    // Never the input, never a key: not in any attribute of the trace.
    const everything = JSON.stringify(spans.map((s) => s.attributes));
    expect(everything).not.toContain('secret input');

    // The access log line of that request names the trace and the request's span.
    const line = hub!
      .stdout()
      .split('\n')
      .filter((l) => l.includes('request completed') && l.includes(caller.trace));
    expect(line).toHaveLength(1);
    expect(JSON.parse(line[0]!)).toMatchObject({ trace_id: caller.trace, span_id: http.spanId });
  });

  it('hangs each run of a batch request under the request, side by side', async () => {
    const caller = ids();
    const res = await fetch(`${hub!.base}/api/tools/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: traceparent(caller) },
      body: JSON.stringify({
        runs: [
          { toolId: 'token-counter', a: 'one' },
          { toolId: 'format-detective', a: '{"k": 1}' },
        ],
      }),
    });
    expect(res.status).toBe(200);
    await otlp.waitFor(() => trace(caller.trace).filter((s) => s.name === 'toolhub.worker.run').length === 2);
    const spans = trace(caller.trace);
    const runs = spans.filter((s) => s.name.startsWith('toolhub.run '));
    expect(runs.map((r) => r.name).sort()).toEqual([
      'toolhub.run format-detective',
      'toolhub.run token-counter',
    ]);
    const http = one(spans, 'POST /api/tools/batch/');
    expect(runs.map((r) => r.parentSpanId)).toEqual([http.spanId, http.spanId]);
    expect(runs.every((r) => r.attributes['toolhub.surface'] === 'batch')).toBe(true);
  });

  it('marks a run past its timeoutMs as a failed worker span', async () => {
    const caller = ids();
    const res = await fetch(`${hub!.base}/api/tools/run/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: traceparent(caller) },
      body: JSON.stringify({
        toolId: 'regex-tester',
        input: { a: '^(a|a)+$', b: `${'a'.repeat(39)}!`, c: 'u', mode: 'test' },
      }),
    });
    expect(res.status).toBe(504);
    await otlp.waitFor(() => trace(caller.trace).some((s) => s.name === 'POST /api/tools/run/'));
    const spans = trace(caller.trace);
    const worker = one(spans, 'toolhub.worker.run');
    expect(worker.status.code).toBe(2); // ERROR
    expect(worker.status.message).toMatch(/^TIMEOUT: /);
    expect(one(spans, 'toolhub.run regex-tester').attributes['toolhub.outcome']).toBe('TIMEOUT');
    expect(one(spans, 'POST /api/tools/run/').attributes['toolhub.error_code']).toBe('TIMEOUT');
  });

  it('continues the trace an MCP tools/call names in its _meta.traceparent', async () => {
    const caller = ids();
    const client = new Client({ name: 'trace-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${hub!.base}/mcp`)));
    try {
      const result = await client.callTool({
        name: 'token-counter',
        arguments: { text: 'hello' },
        _meta: { traceparent: traceparent(caller) },
      });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    await otlp.waitFor(() => trace(caller.trace).some((s) => s.name === 'toolhub.worker.run'));
    const spans = trace(caller.trace);
    const message = one(spans, 'tools/call token-counter');
    expect(message.parentSpanId).toBe(caller.span);
    expect(message.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'token-counter',
    });
    const run = one(spans, 'toolhub.run token-counter');
    expect(run.parentSpanId).toBe(message.spanId);
    expect(run.attributes['toolhub.surface']).toBe('mcp');
    expect(one(spans, 'toolhub.admission').parentSpanId).toBe(run.spanId);
    expect(one(spans, 'toolhub.worker.run').parentSpanId).toBe(one(spans, 'toolhub.pool').spanId);
  });

  it('carries the trace into a job, its run and its webhook, whose POST sends a traceparent', async () => {
    const caller = ids();
    const res = await fetch(`${hub!.base}/api/jobs/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: traceparent(caller) },
      body: JSON.stringify({ toolId: 'token-counter', a: 'a job', callbackUrl: `${hooks.url}/hook` }),
    });
    expect(res.status).toBe(202);
    await otlp.waitFor(() => trace(caller.trace).some((s) => s.name === 'toolhub.webhook.delivery'));
    const spans = trace(caller.trace);
    const http = one(spans, 'POST /api/jobs/');
    expect(http.parentSpanId).toBe(caller.span);
    const job = one(spans, 'toolhub.job');
    expect(job.kind).toBe(5); // CONSUMER
    expect(spans.some((s) => s.spanId === job.parentSpanId)).toBe(true);
    const run = one(spans, 'toolhub.run token-counter');
    expect(run.parentSpanId).toBe(job.spanId);
    expect(run.attributes['toolhub.surface']).toBe('job');
    const delivery = one(spans, 'toolhub.webhook.delivery');
    expect(delivery.kind).toBe(3); // CLIENT
    expect(delivery.parentSpanId).toBe(job.spanId);
    expect(delivery.attributes['http.response.status_code']).toBe(204);
    // The receiver was told the delivery's span as its parent.
    const got = hooks.received.find((r) => r.headers.traceparent?.includes(caller.trace));
    expect(got?.headers.traceparent).toBe(`00-${caller.trace}-${delivery.spanId}-01`);
    expect(got?.verifiedBy).toEqual([0]);
  });

  it('serves exemplars with trace ids in OpenMetrics, and plain Prometheus text otherwise', async () => {
    const caller = ids();
    await fetch(`${hub!.base}/api/tools/run/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: traceparent(caller) },
      body: JSON.stringify({ toolId: 'token-counter', a: `exemplar ${Date.now()}` }),
    });
    const om = await fetch(`${hub!.base}/metrics`, {
      headers: { accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' },
    });
    expect(om.headers.get('content-type')).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    const text = await om.text();
    expect(text.endsWith('# EOF\n')).toBe(true);
    const exemplar = new RegExp(
      `^toolhub_run_duration_seconds_bucket\\{[^}]*tool="token-counter"[^}]*\\} \\d+ # \\{trace_id="${caller.trace}",span_id="[0-9a-f]{16}"\\} [0-9.e-]+ [0-9.]+$`,
      'm',
    );
    expect(text).toMatch(exemplar);
    expect(text).toMatch(
      /^toolhub_http_request_duration_seconds_bucket\{[^}]*route="\/api\/tools\/run\/"[^}]*\} \d+ # \{trace_id="/m,
    );
    // Counters as OpenMetrics names them: the family without _total, its samples with it.
    expect(text).toMatch(/^# TYPE toolhub_runs counter$/m);
    expect(text).toMatch(/^toolhub_runs_total\{/m);
    // The reference parser reads the whole exposition, and finds the exemplars on buckets.
    const samples = parseOpenMetrics(text);
    const traced = samples.filter((s) => s.exemplar?.trace_id === caller.trace);
    expect(traced.map((s) => s.family)).toEqual(
      expect.arrayContaining(['toolhub_run_duration_seconds', 'toolhub_http_request_duration_seconds']),
    );
    expect(
      traced.every((s) => s.name.endsWith('_bucket') && /^[0-9a-f]{16}$/.test(s.exemplar!.span_id!)),
    ).toBe(true);
    expect(samples.find((s) => s.family === 'toolhub_runs')?.type).toBe('counter');

    const plain = await fetch(`${hub!.base}/metrics`);
    expect(plain.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await plain.text();
    expect(body).not.toContain('trace_id');
    // An OpenMetrics scrape before it renamed nothing: the counter keeps its name.
    expect(body).toMatch(/^# TYPE toolhub_runs_total counter$/m);
    const check = promtool(['check', 'metrics'], body);
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});

describe('traces over OTLP/gRPC', () => {
  it('sends the spans of a request to a gRPC collector when OTEL_EXPORTER_OTLP_PROTOCOL=grpc', async () => {
    const otlp = await new OtlpReceiver('grpc').start();
    const hub = await startInstance({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    try {
      const caller = ids();
      const res = await fetch(`${hub.base}/api/tools/run/?toolId=token-counter&a=hello`, {
        headers: { traceparent: traceparent(caller) },
      });
      expect(res.status).toBe(200);
      const spans = await otlp.waitFor((all) => all.some((s) => s.name === 'toolhub.worker.run'));
      expect(otlp.contentTypes.every((t) => t === 'application/grpc')).toBe(true);
      const http = one(spans, 'GET /api/tools/run/');
      expect(http).toMatchObject({ traceId: caller.trace, parentSpanId: caller.span, service: 'tool-hub' });
      expect(one(spans, 'toolhub.run token-counter').parentSpanId).toBe(http.spanId);
    } finally {
      await stopInstance(hub);
      await otlp.stop();
    }
    // Hub processes started inside the test: past 30 s at load 10 on two cores (a loaded-proof run).
  }, 120_000);
});

describe('traces over OTLP/JSON', () => {
  it('sends the same spans as JSON with http/json, none while off, and answers as ever without a collector', async () => {
    const otlp = await new OtlpReceiver().start();
    const env = { LOG_LEVEL: 'info', OTEL_BSP_SCHEDULE_DELAY: '100' };
    // A collector that is away: a port nothing listens on (a receiver's, stopped).
    const gone = await new OtlpReceiver().start();
    await gone.stop();
    const [on, off, away] = await Promise.all([
      startInstance({
        ...env,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }),
      startInstance(env),
      startInstance({
        ...env,
        OTEL_EXPORTER_OTLP_ENDPOINT: gone.endpoint,
        OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
        OTEL_TRACES_SAMPLER: 'always_on',
      }),
    ]);
    try {
      const caller = ids();
      for (const hub of [on, off]) {
        const res = await fetch(`${hub.base}/api/tools/run/?toolId=token-counter&a=hello`, {
          headers: { traceparent: traceparent(caller) },
        });
        expect(res.status).toBe(200);
      }
      const spans = await otlp.waitFor((all) => all.some((s) => s.name === 'GET /api/tools/run/'));
      expect(otlp.contentTypes.every((t) => t.startsWith('application/json'))).toBe(true);
      const http = spans.filter((s) => s.name === 'GET /api/tools/run/');
      expect(http).toHaveLength(1);
      expect(http[0]).toMatchObject({ traceId: caller.trace, parentSpanId: caller.span });
      // The URL is not on the span: its query string holds the input.
      expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('a=hello');
      // The hub without OTEL_* sent nothing, and its log names no trace.
      await stopInstance(off);
      expect(off.stdout()).toContain('request completed');
      expect(off.stdout()).not.toContain('trace_id');
      // Without its collector a hub answers as ever, and says each distinct complaint once.
      for (let i = 0; i < 5; i++)
        expect((await fetch(`${away.base}/api/tools/run/?toolId=token-counter&a=${i}`)).status).toBe(200);
      const until = Date.now() + 10_000;
      while (!away.stderr().includes('tracing:') && Date.now() < until)
        await new Promise((r) => setTimeout(r, 100));
      const complaints = away
        .stderr()
        .split('\n')
        .filter((l) => l.includes('tracing:'));
      expect(complaints.length).toBeGreaterThan(0);
      expect(new Set(complaints.map((l) => JSON.parse(l).msg)).size).toBe(complaints.length);
    } finally {
      await Promise.all([stopInstance(on), stopInstance(off), stopInstance(away)]);
      await otlp.stop();
    }
    // Hub processes started inside the test: past 30 s at load 10 on two cores (a loaded-proof run).
  }, 120_000);
});
