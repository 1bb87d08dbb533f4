import { randomBytes } from 'node:crypto';
import type { ReleaseRequest } from './store.js';

/** Releases that could not reach Redis, kept to give back once it answers again (bounded). */
const MAX_UNRELEASED = 10_000;

/**
 * This instance's account of its leases in Redis: fresh lease ids (an instance's random part
 * and a counter, unique across the fleet), the leases held by tool (the metric), and the
 * releases that failed while Redis was away, given back when it answers again.
 */
export class LeaseBook {
  private readonly idPrefix = randomBytes(6).toString('base64url');
  private ids = 0;
  private unreleased: ReleaseRequest[] = [];
  readonly held = new Map<string, number>();

  nextId(): string {
    this.ids = (this.ids + 1) % Number.MAX_SAFE_INTEGER;
    return `${this.idPrefix}${this.ids.toString(36)}`;
  }

  taken(toolId: string): void {
    this.held.set(toolId, (this.held.get(toolId) ?? 0) + 1);
  }

  given(toolId: string): void {
    this.held.set(toolId, Math.max(0, (this.held.get(toolId) ?? 1) - 1));
  }

  /** A release that failed: its lease is given back later (its charge went in-process). */
  failed(request: ReleaseRequest): void {
    if (this.unreleased.length < MAX_UNRELEASED) this.unreleased.push({ ...request, chargedMs: 0 });
  }

  get pending(): number {
    return this.unreleased.length;
  }

  /** Redis answered: sends the releases that failed; those failing again wait for the next time. */
  retry(send: (request: ReleaseRequest) => Promise<void>): void {
    if (this.unreleased.length === 0) return;
    const pending = this.unreleased;
    this.unreleased = [];
    for (const request of pending) void send(request).catch(() => this.failed(request));
  }
}
