import { dirname, join } from 'node:path';
import type { HubMetrics } from '../metrics.js';
import { toolKitDir } from '../paths.js';
import type { RegisteredTool } from '../registry.js';
import type { ToolSpec } from '../shared/tool-def.js';
import type { CacheOutcome } from './cache-status.js';
import { etagOf, isDeterministic, keyOf, keyPrefix } from './content-key.js';
import { type CacheDirectives, type Declined, declines } from './request-directives.js';
import type { CacheHit, ResultCache } from './result-cache.js';
import { toolVersion } from './tool-version.js';

/** A run's place in the cache: its content key and ETag, or null when the tool is not deterministic for it. */
export interface RunAddress {
  key: string;
  etag: string;
}

/**
 * The result cache as the run facade uses it: each tool's version computed once at boot,
 * the content address of a run, lookups and writes counted by tool (the metrics).
 */
export class RunCache {
  private readonly versions = new Map<string, string>();
  /** Each tool's key prefix by mode, made once (a run's key costs one hash of the input). */
  private readonly prefixes = new Map<string, Map<string, string>>();
  /** Each tool's fields whose value counts as its JSON text (its `jsonText`). */
  private readonly jsonText = new Map<string, ReadonlySet<string>>();

  constructor(
    tools: Map<string, RegisteredTool>,
    private readonly results: ResultCache,
    private readonly metrics: HubMetrics,
  ) {
    for (const [id, tool] of tools) {
      const folder = dirname(tool.runPath);
      this.versions.set(id, toolVersion(folder, [join(dirname(folder), '_shared'), toolKitDir]));
      this.jsonText.set(id, new Set(tool.def.jsonText ?? []));
    }
  }

  /** What the in-process layer holds (the metrics). */
  get memoryStats(): { entries: number; bytes: number } {
    return this.results.memoryStats;
  }

  /** The tool's version in content keys (docs/api.md, "Result cache and ETags"). */
  versionOf(toolId: string): string {
    return this.versions.get(toolId)!;
  }

  addressOf(def: ToolSpec, mode: string, input: Record<string, unknown>): RunAddress | null {
    if (!isDeterministic(def, input)) return null;
    let byMode = this.prefixes.get(def.id);
    if (!byMode) {
      byMode = new Map();
      this.prefixes.set(def.id, byMode);
    }
    let prefix = byMode.get(mode);
    if (prefix === undefined) {
      prefix = keyPrefix(def.id, this.versionOf(def.id), mode);
      byMode.set(mode, prefix);
    }
    const key = keyOf(prefix, input, this.jsonText.get(def.id)!);
    return { key, etag: etagOf(key) };
  }

  /**
   * Looks a run up as its request's directives allow (docs/api.md, "Result cache and ETags"):
   * the hit that may answer, or the directive that declined a stored result. The lookup is made
   * whatever the directives say, so Cache-Status can say whether a stored result was declined
   * (`fwd=request`) or there was none (`fwd=miss`); a declined one counts as a miss.
   */
  async lookup(
    toolId: string,
    key: string,
    directives: CacheDirectives | undefined,
  ): Promise<{ hit?: CacheHit; declined?: Declined }> {
    const found = await this.results.get(key);
    const declined = found && directives ? declines(directives, found, Date.now()) : undefined;
    if (found && !declined) {
      this.metrics.recordCacheHit(toolId, found.layer);
      return { hit: found };
    }
    this.metrics.recordCacheMiss(toolId);
    return declined ? { declined } : {};
  }

  /** A validator matched: the client's copy is current, counted as a hit of the `etag` layer. */
  validated(toolId: string): CacheOutcome {
    this.metrics.recordCacheHit(toolId, 'etag');
    return { status: 'hit', layer: 'etag' };
  }

  /** After a successful run: what the cache does with its result (`no-store`: nothing). */
  keep(
    toolId: string,
    address: RunAddress | null,
    json: string,
    ttlSec: number,
    directives?: CacheDirectives,
    declined?: Declined,
  ): CacheOutcome | Promise<CacheOutcome> {
    if (address === null) return { status: 'bypass', reason: 'not-deterministic' };
    if (ttlSec <= 0) return { status: 'bypass', reason: 'off' };
    const asked = declined ? { declined } : {};
    if (directives?.noStore) return { status: 'miss', stored: false, reason: 'no-store', ...asked };
    return this.stored(toolId, address.key, json, ttlSec, asked);
  }

  private async stored(
    toolId: string,
    key: string,
    json: string,
    ttlSec: number,
    asked: { declined?: Declined },
  ): Promise<CacheOutcome> {
    const where = await this.results.set(key, json, ttlSec);
    if (where.stored) this.metrics.recordCacheWrite(toolId);
    return { status: 'miss', ...where, ...asked };
  }
}
