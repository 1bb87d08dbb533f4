import type { Worker } from 'node:cluster';
import { isObject } from '../shared/is-object.js';

/** The primary's end of an accepted connection, as node:cluster passes it on. */
interface Handle {
  close(): void;
}

/** A connection on its way to a process: the listening socket's key, and who was tried. */
interface Pass {
  key: string;
  handle: Handle;
  tried: Set<Worker>;
}

/** node:cluster's message that hands a process a connection, and the process's answer. */
interface NewConn {
  cmd: 'NODE_CLUSTER';
  act: 'newconn';
  key: string;
  seq: number | string;
}
interface Ack {
  cmd: 'NODE_CLUSTER';
  ack: number | string;
  accepted: boolean;
}

const OURS = 'toolhub-';

/**
 * Connections the primary handed to an API process that died before taking them
 * (docs/operations.md, "Every core of the box"). node:cluster's round-robin accepts each
 * connection in the primary and hands it to a process, keeping its own end open until the
 * process answers that it took it; a process that dies first never answers, and that
 * connection stayed open with nobody to serve it: the client waited until its own timeout.
 * Here the primary watches each handoff go out (node:cluster's `newconn` message) and come
 * back (its answer); what a process still owed when it went away is handed to another
 * listening process in node:cluster's own words, which that process answers like any other,
 * or closed at once when none is left. Nothing had been read from such a connection: the
 * process that takes it reads the request whole.
 */
export class Handoffs {
  private readonly owed = new Map<Worker, Map<number | string, Pass>>();
  /** Our handoffs on their way out, for `watch` to find their Pass (and who was tried). */
  private readonly sending = new Map<string, Pass>();
  private nextSeq = 0;

  /** `takers(except)`: the processes that may take a connection now (listening, connected). */
  constructor(private readonly takers: (except: Worker) => Worker[]) {}

  /** Watches the connections handed to `proc`, from its start. */
  watch(proc: Worker): void {
    const owed = new Map<number | string, Pass>();
    this.owed.set(proc, owed);
    const child = proc.process;
    const send = child.send as (...args: unknown[]) => boolean;
    child.send = ((message: unknown, handle?: unknown, ...rest: unknown[]) => {
      if (isNewConn(message) && isHandle(handle)) {
        const pass = this.sending.get(String(message.seq)) ?? { key: message.key, handle, tried: new Set() };
        pass.tried.add(proc);
        owed.set(message.seq, pass);
      }
      return send.call(child, message, handle, ...rest);
    }) as typeof child.send;
    child.on('internalMessage', (m: unknown) => {
      if (!isAck(m)) return;
      const pass = owed.get(m.ack);
      if (!pass) return;
      owed.delete(m.ack);
      // node:cluster's own handoffs: it closes its end, or hands the connection on, itself.
      if (typeof m.ack !== 'string' || !m.ack.startsWith(OURS)) return;
      if (m.accepted) pass.handle.close();
      else this.passOn(pass, this.takers(proc));
    });
  }

  /**
   * `proc` went away (its IPC channel closed): the connections it had not taken go to
   * another process (each tried once), closed when none is left. Returns how many it held.
   */
  gone(proc: Worker): number {
    const owed = this.owed.get(proc);
    this.owed.delete(proc);
    for (const pass of owed?.values() ?? []) this.passOn(pass, this.takers(proc));
    return owed?.size ?? 0;
  }

  private passOn(pass: Pass, candidates: readonly Worker[]): void {
    const to = candidates.find((p) => !pass.tried.has(p) && p.isConnected() && this.owed.has(p));
    if (!to) {
      pass.handle.close();
      return;
    }
    const seq = `${OURS}${this.nextSeq++}`;
    this.sending.set(seq, pass);
    try {
      // node:cluster's raw handle: child_process passes it on as it does node:cluster's own.
      to.process.send(
        { cmd: 'NODE_CLUSTER', act: 'newconn', key: pass.key, seq } satisfies NewConn,
        pass.handle as never,
      );
    } finally {
      this.sending.delete(seq);
    }
  }
}

/** node:cluster's own messages carry `cmd: 'NODE_CLUSTER'`; a handoff's id is a number (ours a string). */
const isCluster = (m: unknown): m is Record<string, unknown> => isObject(m) && m.cmd === 'NODE_CLUSTER';
const isSeq = (v: unknown): v is number | string => typeof v === 'number' || typeof v === 'string';

const isNewConn = (m: unknown): m is NewConn =>
  isCluster(m) && m.act === 'newconn' && typeof m.key === 'string' && isSeq(m.seq);

const isAck = (m: unknown): m is Ack => isCluster(m) && isSeq(m.ack) && typeof m.accepted === 'boolean';

const isHandle = (h: unknown): h is Handle => isObject(h) && typeof h.close === 'function';
