/**
 * What the primary and the API processes say to each other over the cluster's IPC channel
 * (docs/architecture.md, "Processes"): a process asks for the box's view (`ask`), the
 * primary asks every other process for its own part (`tell`), each answers (`told`), and
 * the primary answers the asker (`answer`). Only plain data crosses.
 */
export type Question = 'metrics' | 'openmetrics' | 'ready';

export type Message =
  /** `own`: the asker's own part, so that the primary need not ask it back. */
  | { toolhub: 'ask'; id: number; what: Question; own?: unknown }
  | { toolhub: 'tell'; id: number; what: Question }
  | { toolhub: 'told'; id: number; value: unknown }
  | { toolhub: 'answer'; id: number; value: unknown }
  /** Sent once by an API process as soon as it handles SIGHUP itself (src/server.ts). */
  | { toolhub: 'hup-ready' };

/**
 * The box's readiness (docs/operations.md, "Health and readiness"): its `total` processes
 * are each ready, not ready (listening, but not ready or silent past the bound), starting
 * (started, not yet listening) or down (dead, to be started again).
 */
export interface BoxReadiness {
  total: number;
  ready: number;
  notReady: number;
  starting: number;
  down: number;
}

/**
 * The primary's answer to `ready`: whether the box can serve (every process has been ready
 * once, its boot, and at least one is now) and its processes by state.
 */
export interface BoxAnswer {
  ok: boolean;
  processes: BoxReadiness;
}

/**
 * `toolhub_processes{state}`, the same four states: every API process reports itself
 * (ready or not_ready) and, with HUB_PROCESSES > 1, the primary adds those only it sees
 * (starting, down, and silent ones as not_ready); the scrape sums them.
 */
export const PROCESSES_GAUGE = {
  name: 'toolhub_processes',
  help: 'API processes of the instance by state: ready, not_ready (listening, but not ready or silent), starting (not yet listening), down (dead, to be started again)',
  labelNames: ['state'],
} as const;

export function isMessage(m: unknown): m is Message {
  return typeof m === 'object' && m !== null && typeof (m as { toolhub?: unknown }).toolhub === 'string';
}
