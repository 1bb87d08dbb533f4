/**
 * HUB_PROCESSES (docs/operations.md, "Every core of the box"): one primary and its API
 * processes on one port, real processes on a real Redis. Every process answers; a limit is
 * exact across them; one scrape is the sum of theirs; a process that dies comes back while
 * the others answer; SIGTERM drains the runs in flight in every process and exits 0; more
 * than one process without Redis refuses to boot with one line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysFile, freePort, policyFile, REDIS_URL, redisPrefix, requireRedis } from './helpers.js';
import { promtool } from './promtool.js';
import { type Instance, serverJs, startInstance, stopInstance } from './server-process.js';

/**
 * A request on a connection of its own (the primary hands new connections to its processes
 * in turn): a GET, or a POST of `json`.
 */
function send(
  url: string,
  opts: { json?: unknown; headers?: Record<string, string> } = {},
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
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${url} in 15 s`)));
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
      },
    }),
    ...extra,
  });

describe('HUB_PROCESSES=2', () => {
  let hub: Instance | undefined;
  beforeAll(async () => {
    await requireRedis();
    hub = await startBox();
  }, 90_000);
  afterAll(async () => {
    await stopInstance(hub);
  });

  it('answers from every process on one port; a limit is exact across them and one scrape sums them', async () => {
    const readiness = JSON.parse((await get(`${hub!.base}/readyz`)).body) as { processes: unknown };
    expect(readiness.processes).toEqual({ total: 2, ready: 2 });
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
  });

  it('starts a process that dies again, while the other answers', async () => {
    const before = childrenOf(hub!.proc.pid!);
    expect(before).toHaveLength(2);
    process.kill(before[0]!, 'SIGKILL');
    // Once the primary knows (a connection handed over at the very instant of the death is
    // lost with the process), the other process answers while the new one boots.
    await expect.poll(() => hub!.stdout(), { timeout: 10_000 }).toContain('an API process exited');
    // The box is not ready while one of its processes is missing (its successor still boots).
    const down = await get(`${hub!.base}/readyz`);
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body).processes).toEqual({ total: 2, ready: 1 });
    for (let i = 0; i < 4; i++) {
      const res = await get(`${hub!.base}/api/tools/run/?toolId=cron-expression&a=${i}%20*%20*%20*%20*`);
      expect(res.status).toBe(200);
    }
    await expect
      .poll(() => childrenOf(hub!.proc.pid!).filter((p) => !before.includes(p)).length, { timeout: 30_000 })
      .toBe(1);
    await expect
      .poll(async () => JSON.parse((await get(`${hub!.base}/readyz`)).body).processes, { timeout: 30_000 })
      .toEqual({ total: 2, ready: 2 });
    expect(hub!.stdout()).toContain('an API process exited; starting it again');
    expect(sample((await get(`${hub!.base}/metrics`)).body, 'toolhub_process_restarts_total')).toBe(1);
  }, 90_000);
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
      try {
        await expect
          .poll(
            async () => {
              const res = await get(`http://127.0.0.1:${port}/readyz`).catch(() => ({ status: 0, body: '' }));
              return res.status;
            },
            { timeout: 60_000, interval: 100 },
          )
          .toBe(200);
      } finally {
        clearInterval(hup);
      }
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
