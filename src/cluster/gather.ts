import type { Worker } from 'node:cluster';
import type { Message, Question } from './messages.js';

interface Round {
  /** The processes asked that have neither answered nor gone. */
  owed: Set<Worker>;
  parts: Map<Worker, unknown>;
  done: () => void;
}

/**
 * The primary's questions to its API processes (docs/architecture.md, "Processes"): each
 * one's part, gathered until every process asked has answered or has gone (one that dies
 * mid-question is not waited for: it will never answer), or until the bound.
 */
export class Gatherer {
  private readonly rounds = new Map<number, Round>();
  private nextId = 0;

  /** The parts of `procs` that came within `timeoutMs`, by process. */
  ask(procs: readonly Worker[], what: Question, timeoutMs: number): Promise<Map<Worker, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const round: Round = { owed: new Set(procs), parts: new Map(), done: () => {} };
      const timer = setTimeout(() => round.done(), timeoutMs);
      round.done = () => {
        clearTimeout(timer);
        this.rounds.delete(id);
        resolve(round.parts);
      };
      this.rounds.set(id, round);
      for (const p of procs) p.send({ toolhub: 'tell', id, what } satisfies Message);
      if (round.owed.size === 0) round.done();
    });
  }

  /** A process's part of round `id`. */
  told(proc: Worker, id: number, value: unknown): void {
    const round = this.rounds.get(id);
    if (!round?.owed.delete(proc)) return;
    round.parts.set(proc, value);
    if (round.owed.size === 0) round.done();
  }

  /** A process that went away (its IPC channel closed): no round waits for it any longer. */
  gone(proc: Worker): void {
    for (const round of this.rounds.values())
      if (round.owed.delete(proc) && round.owed.size === 0) round.done();
  }
}
