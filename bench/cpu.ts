import { readdir, readFile } from 'node:fs/promises';
import { Redis } from 'ioredis';

/**
 * CPU time by thread, read from /proc/<pid>/task/<tid>/schedstat (nanoseconds on CPU; the
 * 10 ms ticks of /proc/<pid>/task/<tid>/stat are too coarse for a 10 s run). The hub's pool
 * workers name their thread `toolhub-worker` (workers/tool-worker.ts), the main thread's id is
 * the pid, and every other thread is a V8 or libuv helper (GC, compiler, file system, DNS).
 */
export type ThreadCpu = Map<number, { comm: string; ns: number }>;

export const WORKER_THREAD_NAME = 'toolhub-worker';

export async function readThreadCpu(pid: number): Promise<ThreadCpu> {
  const out: ThreadCpu = new Map();
  let tids: string[];
  try {
    tids = await readdir(`/proc/${pid}/task`);
  } catch {
    return out; // no /proc (not Linux) or the process is gone
  }
  await Promise.all(
    tids.map(async (t) => {
      try {
        const [stat, comm] = await Promise.all([
          readFile(`/proc/${pid}/task/${t}/schedstat`, 'latin1'),
          readFile(`/proc/${pid}/task/${t}/comm`, 'latin1'),
        ]);
        out.set(Number(t), { comm: comm.trim(), ns: Number(stat.split(' ')[0]) });
      } catch {
        // the thread ended between readdir and read
      }
    }),
  );
  return out;
}

/** CPU of one measured run by thread role, in µs per good (2xx) answer. */
export interface CpuPerRequest {
  total: number;
  api: number;
  /** All pool workers together, and each worker (busiest first): idle spares show as ~0. */
  workers: number;
  perWorker: number[];
  /** V8 and libuv helper threads (garbage collection, compilation, the file-system pool). */
  helpers: number;
  /** The Redis server's CPU per answer, when the run used Redis. */
  redis: number | null;
}

export function cpuPerRequest(
  pid: number,
  before: ThreadCpu,
  after: ThreadCpu,
  answers: number,
  redisNs: number | null,
): CpuPerRequest | null {
  if (after.size === 0 || answers <= 0) return null;
  const us = (ns: number) => ns / 1000 / answers;
  let api = 0;
  let helpers = 0;
  const perWorker: number[] = [];
  for (const [tid, { comm, ns }] of after) {
    const spent = ns - (before.get(tid)?.ns ?? 0); // a thread born during the run counts whole
    if (tid === pid) api += spent;
    else if (comm === WORKER_THREAD_NAME) perWorker.push(spent);
    else helpers += spent;
  }
  perWorker.sort((a, b) => b - a);
  const workers = perWorker.reduce((a, b) => a + b, 0);
  const own = api + workers + helpers;
  return {
    total: us(own + (redisNs ?? 0)),
    api: us(api),
    workers: us(workers),
    perWorker: perWorker.map(us),
    helpers: us(helpers),
    redis: redisNs === null ? null : us(redisNs),
  };
}

/** The Redis server's process id, from INFO (the harness measures the server it is given). */
export async function redisPid(url: string): Promise<number | null> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const info = await client.info('server');
    const pid = /^process_id:(\d+)/m.exec(info)?.[1];
    return pid === undefined ? null : Number(pid);
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

/** Total CPU of a process (all its threads), ns. */
export async function processCpuNs(pid: number): Promise<number | null> {
  const threads = await readThreadCpu(pid);
  if (threads.size === 0) return null;
  let ns = 0;
  for (const t of threads.values()) ns += t.ns;
  return ns;
}
