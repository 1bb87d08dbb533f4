import cluster, { type Worker } from 'node:cluster';
import { pino } from 'pino';
import { Counter, Gauge, type MetricObjectWithValues, type MetricValue, Registry } from 'prom-client';
import { type MetricsFormat, renderMetrics } from '../metrics-text.js';
import { Gatherer } from './gather.js';
import { Handoffs } from './handoff.js';
import { type BoxAnswer, isMessage, type Message, PROCESSES_GAUGE } from './messages.js';

/** How long the primary waits for each process's part of a scrape. */
const TELL_TIMEOUT_MS = 2000;
/**
 * How long it waits for each other process to say whether it is ready: one that cannot say
 * within 1 s lags past the default shedding bound (PRESSURE_MAX_EVENT_LOOP_DELAY_MS), and
 * the probe answers within the readiness probe's 2 s timeout (deploy/kubernetes/).
 */
const READY_TIMEOUT_MS = 1000;
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
 * that dies (with backoff, a log line and `toolhub_process_restarts_total`) and hands the
 * connections it still owed to another, passes SIGHUP to every process, drains them all on
 * SIGTERM, and answers their questions about the box: the sum of their metrics (one
 * scrape, prom-client's aggregation) and how many of them are ready.
 */
export function runPrimary(opts: PrimaryOptions): void {
  const log = pino({ level: opts.logLevel, base: { pid: process.pid, role: 'primary' } });
  const registry = new Registry();
  const restarts = new Counter({
    name: 'toolhub_process_restarts_total',
    help: 'API processes started again after one died (HUB_PROCESSES > 1)',
    registers: [registry],
  });
  // The primary's part of the gauge: what only it sees. Each process that answers the
  // scrape reports itself (src/metrics.ts).
  const states = new Gauge({
    ...PROCESSES_GAUGE,
    labelNames: [...PROCESSES_GAUGE.labelNames],
    registers: [registry],
  });
  const byOrdinal = new Map<number, Worker>();
  const deaths = new Map<number, number>();
  /** Processes that have listened: their link to the primary is up (the app is built first). */
  const listening = new WeakSet<Worker>();
  const gatherer = new Gatherer();
  let closing = false;
  let listened = false;
  /** Every process has been ready at once (see `readiness`). */
  let booted = false;

  /** The processes that can answer a question or take a connection now, `except` one. */
  const live = (except?: Worker) =>
    [...byOrdinal.values()].filter((p) => p !== except && listening.has(p) && p.isConnected());
  const handoffs = new Handoffs(live);
  /** Started and not yet listening (a process that died booting is down). */
  const startingCount = (except?: Worker) =>
    [...byOrdinal.values()].filter((p) => p !== except && !listening.has(p) && p.isConnected()).length;

  const start = (ordinal: number) => {
    const proc = cluster.fork(opts.env);
    const startedAt = Date.now();
    byOrdinal.set(ordinal, proc);
    handoffs.watch(proc);
    // A message to a process that has just died fails (EPIPE, channel closed); node:cluster
    // re-emits that on its cluster.Worker, where an unhandled 'error' would end the primary and
    // with it every process of the box.
    proc.on('error', (err: Error) =>
      log.warn({ process: ordinal, reason: err.message }, 'a message to an API process failed'),
    );
    proc.on('message', (m: unknown) => {
      if (isMessage(m)) void onMessage(proc, m);
    });
    proc.once('listening', () => {
      listened = true;
      listening.add(proc);
    });
    const gone = () => {
      gatherer.gone(proc);
      const owed = handoffs.gone(proc);
      if (owed > 0)
        log.warn(
          { process: ordinal, connections: owed },
          'connections handed to an API process that died go to another',
        );
    };
    proc.once('disconnect', gone);
    proc.on('exit', (code, signal) => {
      gone();
      if (byOrdinal.get(ordinal) === proc) byOrdinal.delete(ordinal);
      if (closing) return;
      // No process of the box has ever listened: the boot fails (a port in use, say; the
      // process said why on stderr). Starting it again would fail the same way forever.
      if (!listened) {
        log.error({ process: ordinal, code, signal }, 'an API process failed to start; stopping');
        shutdown('boot failure', 1);
        return;
      }
      const inARow = Date.now() - startedAt > STABLE_MS ? 1 : (deaths.get(ordinal) ?? 0) + 1;
      deaths.set(ordinal, inARow);
      const delayMs = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** (inARow - 1));
      log.error({ process: ordinal, code, signal, delayMs }, 'an API process exited; starting it again');
      restarts.inc();
      setTimeout(() => {
        if (!closing) start(ordinal);
      }, delayMs).unref();
    });
  };

  /**
   * Whether the box can serve, and how many processes are ready: the asker says for itself
   * (`own`), the other listening ones are asked; those starting or dead are counted, never
   * waited for. The box is ready once all its processes have been (its boot: a release
   * whose processes cannot all start is not taken for one that serves), then while any is.
   */
  const readiness = async (asker: Worker, own: unknown): Promise<BoxAnswer> => {
    const others = live(asker);
    const starting = startingCount(asker);
    const parts = await gatherer.ask(others, 'ready', READY_TIMEOUT_MS);
    const ready = [own, ...parts.values()].filter((p) => p === true).length;
    const total = opts.processes;
    if (ready === total) booted = true;
    const down = total - others.length - 1 - starting;
    return {
      ok: booted && ready > 0,
      processes: { total, ready, notReady: others.length + 1 - ready, starting, down },
    };
  };

  /** The box's scrape: every listening process's metrics, and the primary's own, summed. */
  const metrics = async (format: MetricsFormat): Promise<string> => {
    const asked = live();
    const starting = startingCount();
    const parts = await gatherer.ask(asked, 'metrics', TELL_TIMEOUT_MS);
    const all = [...parts.values()].filter(Array.isArray) as MetricObjectWithValues<MetricValue<string>>[][];
    states.labels('ready').set(0);
    states.labels('not_ready').set(asked.length - all.length);
    states.labels('starting').set(starting);
    states.labels('down').set(opts.processes - asked.length - starting);
    return renderMetrics([...all, (await registry.getMetricsAsJSON()) as never], format);
  };

  const onMessage = async (proc: Worker, m: Message) => {
    if (m.toolhub === 'hup-ready') hupReady.add(proc);
    else if (m.toolhub === 'told') gatherer.told(proc, m.id, m.value);
    else if (m.toolhub === 'ask') {
      const value =
        m.what === 'ready'
          ? await readiness(proc, m.own)
          : await metrics(m.what === 'openmetrics' ? 'openmetrics' : 'prometheus');
      if (proc.isConnected()) proc.send({ toolhub: 'answer', id: m.id, value } satisfies Message);
    }
  };

  function shutdown(signal: string, failed: 0 | 1 = 0): void {
    if (closing) return;
    closing = true;
    log.info({ signal, processes: byOrdinal.size }, 'shutting down: draining every API process');
    const timer = setTimeout(() => {
      log.error('shutdown timed out; stopping the processes left');
      for (const p of byOrdinal.values()) p.process.kill('SIGKILL');
      process.exit(1);
    }, opts.shutdownTimeoutMs + 1000);
    timer.unref();
    const exits = [...byOrdinal.values()].map(
      (p) =>
        new Promise<boolean>((resolve) => {
          if (p.process.exitCode !== null || p.process.signalCode !== null) resolve(p.process.exitCode === 0);
          else p.process.once('exit', (code) => resolve(code === 0));
          p.process.kill('SIGTERM');
        }),
    );
    void Promise.all(exits).then((clean) => process.exit(failed === 0 && clean.every(Boolean) ? 0 : 1));
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  for (let ordinal = 0; ordinal < opts.processes; ordinal++) start(ordinal);
  log.info({ processes: opts.processes, poolThreads: opts.env.POOL_THREADS }, 'started the API processes');
}

/**
 * API processes that handle SIGHUP themselves: one still loading would be ended by the
 * signal's default action, and needs none (it reads the keys file as it boots).
 */
const hupReady = new WeakSet<Worker>();

/** SIGHUP on the primary: every API process re-reads the keys file. */
export function forwardHangup(): void {
  for (const p of Object.values(cluster.workers ?? {})) if (p && hupReady.has(p)) p.process.kill('SIGHUP');
}
