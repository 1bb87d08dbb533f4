/**
 * What the primary and the API processes say to each other over the cluster's IPC channel
 * (docs/architecture.md, "Processes"): a process asks for the box's view (`ask`), the
 * primary asks every process for its own part (`tell`), each answers (`told`), and the
 * primary answers the asker (`answer`). Only plain data crosses.
 */
export type Question = 'metrics' | 'ready';

export type Message =
  | { toolhub: 'ask'; id: number; what: Question }
  | { toolhub: 'tell'; id: number; what: Question }
  | { toolhub: 'told'; id: number; value: unknown }
  | { toolhub: 'answer'; id: number; value: unknown }
  /** Sent once by an API process as soon as it handles SIGHUP itself (src/server.ts). */
  | { toolhub: 'hup-ready' };

/** The box's readiness: processes running and how many of them say ready. */
export interface BoxReadiness {
  total: number;
  ready: number;
}

export function isMessage(m: unknown): m is Message {
  return typeof m === 'object' && m !== null && typeof (m as { toolhub?: unknown }).toolhub === 'string';
}
