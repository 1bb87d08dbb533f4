import cluster, { type Worker } from 'node:cluster';
import { pino } from 'pino';
import {
  AggregatorRegistry,
  Counter,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client';
import { type BoxReadiness, isMessage, type Message, type Question } from './messages.js';

/** How long the primary waits for each process's part of an answer. */
const TELL_TIMEOUT_MS = 2000;
/** A process that died is started again after this, doubled per death in a row up to the cap. */
const RESTART_FIRST_MS = 100;
const RESTART_MAX_MS = 10_000;
/** A process that lived this long before dying starts the backoff over. */
const STABLE_MS = 30_000;

export interface PrimaryOptions {
  processes: number;
  /** The env of every process (POOL_THREADS filled in by the sizing rule when unset). */
  env: Record<string, string>;
  shutdownTimeoutMs: number;
  logLevel: string;
}

/**
 * The primary of HUB_PROCESSES > 1 (docs/operations.md, "Every core of the box"): it serves
 * nothing itself. It starts the API processes on one port (node:cluster), starts again one
 * that dies (with backoff, a log line and `toolhub_process_restarts_total`), passes SIGHUP
 * to every process, drains them all on SIGTERM, and answers their questions about the box:
 * the sum of their metrics (one scrape, prom-client's aggregation) and whether all are ready.
 */
export function runPrimary(opts: PrimaryOptions): void {
  const log = pino({ level: opts.logLevel, base: { pid: process.pid, role: 'primary' } });
  const registry = new Registry();
  const restarts = new Counter({
    name: 'toolhub_process_restarts_total',
    help: 'API processes started again after one died (HUB_PROCESSES > 1)',
    registers: [registry],
  });
  const bySlot = new Map<number, Worker>();
  const deaths = new Map<number, number>();
  const pending = new Map<number, { parts: unknown[]; expected: number; done: () => void }>();
  let nextTell = 0;
  let closing = false;
  let listened = false;

  const start = (slot: number) => {
    const worker = cluster.fork(opts.env);
    const startedAt = Date.now();
    bySlot.set(slot, worker);
    worker.on('message', (m: unknown) => {
      if (isMessage(m)) void onMessage(worker, m);
    });
    worker.once('listening', () => {
      listened = true;
    });
    worker.on('exit', (code, signal) => {
      if (bySlot.get(slot) === worker) bySlot.delete(slot);
      if (closing) return;
      // No process of the box has ever listened: the boot fails (a port in use, say; the
      // process said why on stderr). Starting it again would fail the same way forever.
      if (!listened) {
        log.error({ slot, code, signal }, 'an API process failed to start; stopping');
        shutdown('boot failure', 1);
        return;
      }
      const inARow = Date.now() - startedAt > STABLE_MS ? 1 : (deaths.get(slot) ?? 0) + 1;
      deaths.set(slot, inARow);
      const delayMs = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** (inARow - 1));
      log.error({ slot, code, signal, delayMs }, 'an API process exited; starting it again');
      restarts.inc();
      setTimeout(() => {
        if (!closing) start(slot);
      }, delayMs).unref();
    });
  };

  /** Every live process's part of `what`, those that answer in time. */
  const gather = (what: Question): Promise<unknown[]> => {
    const id = nextTell++;
    const workers = [...bySlot.values()].filter((w) => w.isConnected());
    return new Promise((resolve) => {
      const entry = { parts: [] as unknown[], expected: workers.length, done: () => {} };
      const timer = setTimeout(() => entry.done(), TELL_TIMEOUT_MS);
      entry.done = () => {
        clearTimeout(timer);
        pending.delete(id);
        resolve(entry.parts);
      };
      pending.set(id, entry);
      if (workers.length === 0) entry.done();
      for (const w of workers) w.send({ toolhub: 'tell', id, what } satisfies Message);
    });
  };

  const answerOf = async (what: Question): Promise<unknown> => {
    const parts = await gather(what);
    if (what === 'ready') {
      return { total: opts.processes, ready: parts.filter((p) => p === true).length } satisfies BoxReadiness;
    }
    const all = parts.filter(Array.isArray) as MetricObjectWithValues<MetricValue<string>>[][];
    return AggregatorRegistry.aggregate([...all, await registry.getMetricsAsJSON()]).metrics();
  };

  const onMessage = async (worker: Worker, m: Message) => {
    if (m.toolhub === 'hup-ready') hupReady.add(worker);
    else if (m.toolhub === 'told') {
      const entry = pending.get(m.id);
      if (!entry) return;
      entry.parts.push(m.value);
      if (entry.parts.length >= entry.expected) entry.done();
    } else if (m.toolhub === 'ask') {
      const value = await answerOf(m.what);
      if (worker.isConnected()) worker.send({ toolhub: 'answer', id: m.id, value } satisfies Message);
    }
  };

  function shutdown(signal: string, failed: 0 | 1 = 0): void {
    if (closing) return;
    closing = true;
    log.info({ signal, processes: bySlot.size }, 'shutting down: draining every API process');
    const timer = setTimeout(() => {
      log.error('shutdown timed out; stopping the processes left');
      for (const w of bySlot.values()) w.process.kill('SIGKILL');
      process.exit(1);
    }, opts.shutdownTimeoutMs + 1000);
    timer.unref();
    const exits = [...bySlot.values()].map(
      (w) =>
        new Promise<boolean>((resolve) => {
          if (w.process.exitCode !== null || w.process.signalCode !== null) resolve(w.process.exitCode === 0);
          else w.process.once('exit', (code) => resolve(code === 0));
          w.process.kill('SIGTERM');
        }),
    );
    void Promise.all(exits).then((clean) => process.exit(failed === 0 && clean.every(Boolean) ? 0 : 1));
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  for (let slot = 0; slot < opts.processes; slot++) start(slot);
  log.info({ processes: opts.processes, poolThreads: opts.env.POOL_THREADS }, 'started the API processes');
}

/**
 * API processes that handle SIGHUP themselves: one still loading would be ended by the
 * signal's default action, and needs none (it reads the keys file as it boots).
 */
const hupReady = new WeakSet<Worker>();

/** SIGHUP on the primary: every API process re-reads the keys file. */
export function forwardHangup(): void {
  for (const w of Object.values(cluster.workers ?? {})) if (w && hupReady.has(w)) w.process.kill('SIGHUP');
}
