/**
 * HUB_PROCESSES (docs/operations.md, "Every core of the box"): one primary and its API
 * processes on one port, real processes on a real Redis. Every process answers; a limit is
 * exact across them; one scrape is the sum of theirs; a process that dies comes back while
 * the others answer, the box stays ready, and a connection it was handed but had not taken
 * goes to another; SIGTERM drains the runs in flight in every process and exits 0; more
 * than one process without Redis refuses to boot with one line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysFile, freePort, policyFile, REDIS_URL, redisPrefix, requireRedis } from './helpers.js';
import { parseOpenMetrics } from './openmetrics.js';
import { OtlpReceiver } from './otlp-receiver.js';
import { promtool } from './promtool.js';
import { type Instance, serverJs, startInstance, stopInstance } from './server-process.js';

/**
 * A request on a connection of its own (the primary hands new connections to its processes
 * in turn): a GET, or a POST of `json`.
 */
function send(
  url: string,
  opts: { json?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const data = opts.json === undefined ? undefined : JSON.stringify(opts.json);
    const headers: Record<string, string | number> = { connection: 'close', ...opts.headers };
    if (data !== undefined)
      Object.assign(headers, { 'content-type': 'application/json', 'content-length': data.length });
    const req = request(
      url,
      { method: data === undefined ? 'GET' : 'POST', agent: false, headers },
      (res) => {
        let body = '';
        res.on('data', (d) => {
          body += String(d);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    const timeoutMs = opts.timeoutMs ?? 15_000;
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${url} in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(data);
  });
}
const get = (url: string) => send(url);
const post = (url: string, json: unknown) => send(url, { json });

/** The PIDs whose parent is `pid` (/proc, no pgrep needed). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4, after the command in parentheses (which may hold spaces).
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The PIDs that logged a completed request whose URL contains `marker` (answered `status`, if given). */
function answeredBy(stdout: string, marker: string, status?: number): Set<number> {
  const pids = new Set<number>();
  for (const line of stdout.split('\n')) {
    if (!line.includes('request completed') || !line.includes(marker)) continue;
    const entry = JSON.parse(line) as { pid: number; statusCode: number };
    if (status === undefined || entry.statusCode === status) pids.add(entry.pid);
  }
  return pids;
}

/** The sum of a metric's samples whose labels contain every `with` item. */
function sample(text: string, name: string, ...with_: string[]): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (with_.every((w) => line.includes(w))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const startBox = async (extra: Record<string, string> = {}) =>
  startInstance({
    HUB_PROCESSES: '2',
    REDIS_URL,
    REDIS_PREFIX: redisPrefix(),
    LOG_LEVEL: 'info',
    POLICY_FILE: await policyFile({
      tools: {
        'token-counter': { limit: 6, burst: 0 },
        'regex-tester': { timeoutMs: 3000, maxInFlightPerClient: 8, limit: 100 },
        // The load of runs: never refused by a limit (the leases a dead process held stay
        // taken until they expire), nor past its deadline on a machine busy with a boot.
        'cron-expression': {
          limit: 1_000_000,
          computeBudgetMs: 1_000_000_000,
          maxInFlightPerClient: 100,
          timeoutMs: 60_000,
        },
      },
    }),
    ...extra,
  });

/** The box's processes, every one ready. */
const WHOLE = { total: 2, ready: 2, notReady: 0, starting: 0, down: 0 };

describe('HUB_PROCESSES=2', () => {
  let hub: Instance | undefined;
  let otlp: OtlpReceiver | undefined;
  beforeAll(async () => {
    await requireRedis();
    // Every request traced: the box's OpenMetrics scrape carries the processes' exemplars.
    otlp = await new OtlpReceiver().start();
    hub = await startBox({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_TRACES_SAMPLER: 'always_on' });
  }, 90_000);
  afterAll(async () => {
    await stopInstance(hub);
    await otlp?.stop();
  });

  it('answers from every process on one port; a limit is exact across them and one scrape sums them', async () => {
    const readiness = JSON.parse((await get(`${hub!.base}/readyz`)).body) as { processes: unknown };
    expect(readiness.processes).toEqual(WHOLE);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await get(`${hub!.base}/api/tools/run/?toolId=token-counter&a=exact${i}`)).status);
    // The limit of 6 counts across both processes, in Redis: 6 answers, then refusals.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
    await expect.poll(() => answeredBy(hub!.stdout(), 'a=exact').size, { timeout: 5000 }).toBe(2);
    const metrics = (await get(`${hub!.base}/metrics`)).body;
    // Each run counted once, whichever process ran it.
    expect(sample(metrics, 'toolhub_runs_total', 'tool="token-counter"', 'outcome="ok"')).toBe(6);
    expect(sample(metrics, 'toolhub_runs_total', 'tool="token-counter"', 'outcome="RATE_LIMITED"')).toBe(4);
    expect(sample(metrics, 'toolhub_process_restarts_total')).toBe(0);
    expect(sample(metrics, 'toolhub_processes', 'state="ready"')).toBe(2);
    expect(sample(metrics, 'toolhub_processes')).toBe(2);
    // The box's scrape is a valid exposition (histograms and all), with one bucket line per
    // series: summed, not listed once per process.
    const check = promtool(['check', 'metrics'], metrics);
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
    const infBuckets = metrics
      .split('\n')
      .filter(
        (l) =>
          l.startsWith('toolhub_run_duration_seconds_bucket{') &&
          l.includes('tool="token-counter"') &&
          l.includes('le="+Inf"'),
      );
    expect(infBuckets).toHaveLength(1);
    expect(Number(infBuckets[0]!.slice(infBuckets[0]!.lastIndexOf(' ') + 1))).toBe(6);
    // Asked for OpenMetrics, the primary's sum is OpenMetrics too, the reference parser reads
    // it, and the run histogram's buckets keep exemplars of traces the processes exported.
    const om = await fetch(`${hub!.base}/metrics`, { headers: { accept: 'application/openmetrics-text' } });
    expect(om.headers.get('content-type')).toMatch(/^application\/openmetrics-text/);
    const samples = parseOpenMetrics(await om.text());
    const total = samples.filter((x) => x.name === 'toolhub_runs_total' && x.labels.tool === 'token-counter');
    expect(total.map((x) => x.labels.outcome).sort()).toEqual(['RATE_LIMITED', 'ok']);
    const traced = samples.filter(
      (x) => x.family === 'toolhub_run_duration_seconds' && x.labels.tool === 'token-counter' && x.exemplar,
    );
    expect(traced.length).toBeGreaterThan(0);
    const spans = await otlp!.waitFor((all) => all.some((x) => x.traceId === traced[0]!.exemplar!.trace_id));
    expect(spans.find((x) => x.spanId === traced[0]!.exemplar!.span_id)?.name).toBe(
      'toolhub.run token-counter',
    );
  });

  it('counts a silent process not ready without waiting on it, and hands the connection it died holding to another', async () => {
    const before = childrenOf(hub!.proc.pid!);
    expect(before).toHaveLength(2);
    const silent = before[0]!;
    process.kill(silent, 'SIGSTOP');
    let killed = false;
    try {
      // Four runs, each on a connection of its own: the stopped process is handed one (it
      // never says it took it, so it is handed no other) and the other process the rest.
      let settled = 0;
      const runs = Array.from({ length: 4 }, (_, i) =>
        send(`${hub!.base}/api/tools/run/?toolId=cron-expression&a=${i}%20*%20*%20*%20*`, {
          timeoutMs: 120_000,
        })
          .then((r) => r.status)
          .catch((e: Error) => e.message)
          .finally(() => settled++),
      );
      await expect.poll(() => settled, { timeout: 60_000 }).toBe(3);
      // The box serves: ready, the silent process counted not ready (it was not waited for
      // past the bound: the probe has an answer), in the body and in the scrape.
      const probe = await get(`${hub!.base}/readyz`);
      expect(probe.status).toBe(200);
      expect(JSON.parse(probe.body).processes).toEqual({
        total: 2,
        ready: 1,
        notReady: 1,
        starting: 0,
        down: 0,
      });
      const metrics = (await get(`${hub!.base}/metrics`)).body;
      expect(sample(metrics, 'toolhub_processes', 'state="ready"')).toBe(1);
      expect(sample(metrics, 'toolhub_processes', 'state="not_ready"')).toBe(1);
      // It dies holding a connection it never took: the other process answers it.
      process.kill(silent, 'SIGKILL');
      killed = true;
      expect(await Promise.all(runs)).toEqual([200, 200, 200, 200]);
      expect(hub!.stdout()).toContain('connections handed to an API process that died go to another');
    } finally {
      // A stopped process would not see its primary go: never left behind.
      if (!killed) process.kill(silent, 'SIGKILL');
    }
    // It is started again, and the box is whole once it is ready.
    await expect
      .poll(async () => JSON.parse((await get(`${hub!.base}/readyz`)).body).processes, { timeout: 60_000 })
      .toEqual(WHOLE);
    expect(hub!.stdout()).toContain('an API process exited; starting it again');
    const metrics = (await get(`${hub!.base}/metrics`)).body;
    expect(sample(metrics, 'toolhub_process_restarts_total')).toBe(1);
    expect(sample(metrics, 'toolhub_processes', 'state="ready"')).toBe(2);
  }, 180_000);
});

describe('HUB_PROCESSES=2 when a process is killed under load', () => {
  it('stays ready, answers every run but those the dead process held, and is whole again once it is back', async () => {
    await requireRedis();
    const hub = await startBox();
    type Outcome = { status: number; body: string } | { error: string };
    const outcome = (p: Promise<{ status: number; body: string }>): Promise<Outcome> =>
      p.catch((e: Error) => ({ error: e.message }));
    const runs: Outcome[] = [];
    const probes: Outcome[] = [];
    const CLIENTS = 4;
    let running = true;
    try {
      const before = childrenOf(hub.proc.pid!);
      expect(before).toHaveLength(2);
      // A steady load: CLIENTS clients sending runs one after another, each on a connection
      // of its own, and a probe of /readyz after another.
      const load = [
        ...Array.from({ length: CLIENTS }, async (_, c) => {
          for (let i = 0; running; i++)
            runs.push(
              await outcome(
                get(`${hub.base}/api/tools/run/?toolId=cron-expression&a=${c}%20${i % 24}%20*%20*%20*`),
              ),
            );
        }),
        (async () => {
          while (running) probes.push(await outcome(get(`${hub.base}/readyz`)));
        })(),
      ];
      await expect.poll(() => runs.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(20);
      const killedAt = probes.length;
      process.kill(before[0]!, 'SIGKILL');
      const processes = (o: Outcome | undefined) =>
        o && 'status' in o ? (JSON.parse(o.body) as { processes: typeof WHOLE }).processes : undefined;
      // A probe says one process is not ready (down, starting or loading), and one is...
      await expect
        .poll(() => probes.slice(killedAt).some((o) => processes(o)?.ready === 1), { timeout: 60_000 })
        .toBe(true);
      // ...until the box is whole again, its process started again and ready.
      await expect.poll(() => processes(probes.at(-1)), { timeout: 90_000 }).toEqual(WHOLE);
      const whole = runs.length;
      await expect.poll(() => runs.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(whole + 20);
      running = false;
      await Promise.all(load);

      // Every probe answered 200, and every run 200, but those the dead process held when it
      // died: at most one per client (the probe's included), and each a closed connection
      // at once, not a wait.
      const answered = [...runs, ...probes].filter((o) => 'status' in o);
      const lost = [...runs, ...probes].filter((o) => 'error' in o);
      expect(lost.length).toBeLessThanOrEqual(CLIENTS + 1);
      for (const o of lost) expect((o as { error: string }).error).toMatch(/ECONNRESET|socket hang up|EPIPE/);
      expect(
        answered.filter((o) => (o as { status: number }).status !== 200).map((o) => JSON.stringify(o)),
      ).toEqual([]);
      const states = probes.slice(killedAt).map(processes);
      expect(states).toContainEqual(expect.objectContaining({ total: 2, ready: 1 }));
      for (const s of states) if (s) expect(s.ready + s.notReady + s.starting + s.down).toBe(2);
      expect(hub.stdout()).toContain('an API process exited; starting it again');
      const metrics = (await get(`${hub.base}/metrics`)).body;
      expect(sample(metrics, 'toolhub_process_restarts_total')).toBe(1);
      expect(sample(metrics, 'toolhub_processes', 'state="ready"')).toBe(2);
    } finally {
      running = false;
      await stopInstance(hub);
    }
  }, 300_000);
});

describe('HUB_PROCESSES=2 on SIGTERM', () => {
  it('drains the runs in flight in every process and exits 0', async () => {
    await requireRedis();
    const hub = await startBox({ SHUTDOWN_TIMEOUT_MS: '15000', QUEUE_WAIT_MS: '15000' });
    try {
      // Slow runs (a catastrophic regex runs to its 3000 ms deadline), each on a connection of
      // its own, a moment apart: the primary hands a burst of connections to one process, and
      // spaced ones to each in turn.
      const slow: Promise<{ status: number; body: string }>[] = [];
      for (let i = 0; i < 4; i++) {
        slow.push(
          post(`${hub.base}/api/tools/run/?drain=${i}`, {
            toolId: 'regex-tester',
            input: { a: '^(a|a)+$', b: `${'a'.repeat(40)}!`, c: 'u', mode: 'test' },
          }),
        );
        await new Promise((r) => setTimeout(r, 200));
      }
      // SIGTERM once all four hold a pool slot, in whichever process (the scrape is the box's).
      await expect
        .poll(async () => sample((await get(`${hub.base}/metrics`)).body, 'toolhub_pool_slots_in_use'), {
          timeout: 30_000,
          interval: 50,
        })
        .toBe(4);
      hub.proc.kill('SIGTERM');
      const answers = await Promise.all(slow);
      // Each got its run's own answer (its deadline), not a reset connection.
      expect(answers.map((a) => a.status)).toEqual([504, 504, 504, 504]);
      expect(await hub.exited).toBe(0);
      expect(answeredBy(hub.stdout(), 'drain=').size).toBe(2);
    } finally {
      await stopInstance(hub);
    }
  }, 90_000);
});

describe('HUB_PROCESSES=2 on SIGHUP', () => {
  it('reloads the keys file in every process', async () => {
    await requireRedis();
    const keys = await apiKeysFile([
      { id: 'a', key: 'secret-key-a-0123456789' },
      { id: 'b', key: 'secret-key-b-0123456789' },
    ]);
    const hub = await startBox({ API_KEYS_FILE: keys });
    try {
      const asB = async () =>
        (
          await send(`${hub.base}/api/tools/run/?toolId=cron-expression&a=7%20*%20*%20*%20*`, {
            headers: { authorization: 'Bearer secret-key-b-0123456789' },
          })
        ).status;
      expect(await asB()).toBe(200);
      writeFileSync(
        keys,
        readFileSync(keys, 'utf8')
          .replace(/\{[^{}]*"id":"b"[^{}]*\},?/, '')
          .replace(',]', ']'),
      );
      hub.proc.kill('SIGHUP');
      // Revoked in both processes: new connections until each process has refused one (the
      // primary hands connections to free processes in turn; two at once may go to one).
      await expect
        .poll(
          async () => {
            await Promise.all(Array.from({ length: 4 }, asB));
            return answeredBy(hub.stdout(), 'a=7%20', 401).size;
          },
          { timeout: 15_000 },
        )
        .toBe(2);
      // And none was let in after both had it.
      expect(await Promise.all(Array.from({ length: 4 }, asB))).toEqual([401, 401, 401, 401]);
    } finally {
      await stopInstance(hub);
    }
  }, 90_000);
});

describe('HUB_PROCESSES=2 and SIGHUP during the boot', () => {
  it('boots through a SIGHUP every 20 ms: no process is ended by one', async () => {
    await requireRedis();
    const port = await freePort();
    const env = {
      ...process.env,
      HUB_PROCESSES: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      LOG_LEVEL: 'info',
    };
    const proc = spawn(process.execPath, [serverJs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (d) => {
      out += String(d);
    });
    proc.stderr.on('data', (d) => {
      out += String(d);
    });
    try {
      // From the primary's first line (its handler is in) until the box is ready.
      await expect.poll(() => out, { timeout: 30_000 }).toContain('started the API processes');
      const hup = setInterval(() => proc.kill('SIGHUP'), 20);
      let ready = { status: 0, body: '' };
      try {
        await expect
          .poll(
            async () => {
              ready = await get(`http://127.0.0.1:${port}/readyz`).catch(() => ({ status: 0, body: '' }));
              return ready.status;
            },
            { timeout: 60_000, interval: 100 },
          )
          .toBe(200);
      } finally {
        clearInterval(hup);
      }
      // Ready first once every process is (the box's boot), not as soon as one is.
      expect(JSON.parse(ready.body).processes).toEqual(WHOLE);
      expect(out).not.toContain('an API process');
      expect(proc.exitCode).toBeNull();
      const metrics = (await get(`http://127.0.0.1:${port}/metrics`)).body;
      expect(sample(metrics, 'toolhub_process_restarts_total')).toBe(0);
    } finally {
      proc.kill('SIGKILL');
    }
  }, 120_000);
});

describe('HUB_PROCESSES=2 on a port in use', () => {
  it('stops with the reason, exit 1, rather than start the processes again forever', async () => {
    await requireRedis();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const r = spawnSync(process.execPath, [serverJs], {
        env: { ...process.env, HUB_PROCESSES: '2', PORT: String(port), HOST: '127.0.0.1', REDIS_URL },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`tool-hub: cannot listen on HOST=127.0.0.1 PORT=${port}: EADDRINUSE`);
      expect(r.stdout).toContain('an API process failed to start; stopping');
    } finally {
      taken.close();
    }
  }, 90_000);
});

describe('HUB_PROCESSES without Redis', () => {
  it('refuses to boot with one line saying why', () => {
    const r = spawnSync(process.execPath, [serverJs], {
      env: { ...process.env, HUB_PROCESSES: '3', PORT: '0', HOST: '127.0.0.1', REDIS_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^tool-hub: HUB_PROCESSES=3 \(3 processes\) needs Redis .*in-process limits would count once per process[^\n]*\n$/,
    );
  });
});
