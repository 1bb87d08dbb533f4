import type { Tier } from '../auth/tiers.js';
import type { CacheOutcome } from '../cache/cache-status.js';
import type { CacheDirectives } from '../cache/request-directives.js';
import type { HubError } from '../errors.js';
import type { RateReport } from '../limits/rate-report.js';
import type { RunMeta, Source, Surface } from '../run-meta.js';
import type { ToolSpec } from '../shared/tool-def.js';
import type { ResolvedInput } from './input.js';

/** What the run path may log: the request's logger, or any pino logger. */
export interface RunLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** One run, as every surface hands it to the facade. */
export interface RunCall {
  toolId: string;
  surface: Surface;
  source: Source;
  /** Maps the request onto the tool's mode and named input (differs per surface). */
  resolve: (def: ToolSpec) => ResolvedInput;
  /** The identity limits are counted for: the API key's id, or the client address. */
  client: string;
  /** The API key's tier, when the caller gave a key that has one. */
  tier?: Tier;
  requestId: string;
  log: RunLog;
  /** HTTP If-None-Match: a current ETag answers 304 without a run (docs/api.md, "Result cache and ETags"). */
  ifNoneMatch?: string | string[] | undefined;
  /** HTTP Cache-Control (and Pragma) directives for the result cache; MCP has none (docs/api.md, "Result cache and ETags"). */
  cacheControl?: CacheDirectives | undefined;
  /** A pipeline's step: its deadline is at most this (what is left of PIPELINE_TIMEOUT_MS). */
  timeoutCapMs?: number;
}

/**
 * What a run came to, for every surface to translate into its own protocol: the result
 * (already serialised once, in the worker) with its meta and rate report, or the error.
 * A HubError carries its `runtime` block, `rateLimit` and headers once they are known.
 */
export type RunResult = RunSuccess | RunFailure;

/** A refusal or failure; `rate` once the limits were checked (a batch request's answer merges it). */
export interface RunFailure {
  ok: false;
  error: HubError;
  rate?: RateReport;
}

export interface RunSuccess {
  ok: true;
  toolId: string;
  /** The result as JSON; '' when `notModified`. */
  resultJson: string;
  meta: RunMeta;
  rate: RateReport;
  /** What the result cache did (Cache-Status, MCP `_meta.cache`). */
  cache: CacheOutcome;
  /** The strong ETag of the result: present when the tool is deterministic for this input. */
  etag?: string;
  /** The caller's If-None-Match named the current ETag: answer 304, no body, nothing ran. */
  notModified?: true;
}
