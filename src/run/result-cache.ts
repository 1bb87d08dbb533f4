/**
 * The operator's opt-in result cache (`cacheTtlSec > 0`): identical inputs to a tool are
 * answered from memory for that long. Bounded; the oldest entry goes first.
 */
export class ResultCache {
  private readonly entries = new Map<string, { json: string; expiresAt: number }>();

  constructor(private readonly maxEntries = 1000) {}

  static key(toolId: string, mode: string, input: unknown): string {
    return `${toolId}\0${mode}\0${JSON.stringify(input)}`;
  }

  get(key: string): string | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.json;
  }

  set(key: string, json: string, ttlSec: number): void {
    this.entries.delete(key);
    this.entries.set(key, { json, expiresAt: Date.now() + ttlSec * 1000 });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
