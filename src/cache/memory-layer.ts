interface Entry {
  json: string;
  expiresAt: number;
  /** When the result was stored (ms); undefined for a shared entry written without it. */
  storedAt: number | undefined;
  bytes: number;
}

/**
 * The result cache's in-process layer: least recently used first out, bounded by the bytes
 * its entries hold (two per UTF-16 unit, as V8 may store them), not by their count, since
 * one result may be a token count and the next a QR code. A Map keeps insertion order, so
 * a hit moves its entry to the end and the first entry is the least recently used.
 */
export class MemoryLayer {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, now: number): Entry | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.expiresAt <= now) {
      this.bytes -= hit.bytes;
      return undefined;
    }
    this.entries.set(key, hit);
    return hit;
  }

  /** Holds an entry unless it is larger than the whole bound; false when it was not held. */
  set(key: string, json: string, expiresAt: number, storedAt?: number): boolean {
    const bytes = 2 * (json.length + key.length) + 64;
    if (bytes > this.maxBytes) return false;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    this.entries.set(key, { json, expiresAt, storedAt, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
    return true;
  }

  get stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
