import type { ValidateFunction } from 'ajv';
import { type Tier, TierPolicies } from '../auth/tiers.js';
import { matchesEtag } from '../cache/content-key.js';
import type { RunAddress, RunCache } from '../cache/run-cache.js';
import type { ToolPolicy } from '../config/policy.js';
import { HubError } from '../errors.js';
import type { Reservation } from '../http/memory-budget.js';
import type { Lease, Limits } from '../limits/limits.js';
import { type RateReport, rateReport } from '../limits/rate-report.js';
import type { Usage } from '../limits/usage.js';
import { usageReport } from '../limits/usage-report.js';
import type { HubMetrics } from '../metrics.js';
import type { PipelineStep } from '../pipelines/check.js';
import type { PipelineSet } from '../pipelines/pipeline-set.js';
import type { NamedPipeline } from '../pipelines/pipeline-tool.js';
import type { RunOutcome } from '../pool/outcome.js';
import type { PoolRun } from '../pool/pool.js';
import type { RegisteredTool } from '../registry.js';
import type { RunMeta } from '../run-meta.js';
import { quote } from '../shared/quote.js';
import type { ToolSpec } from '../shared/tool-def.js';
import { tracingOn } from '../telemetry/spans.js';
import { hitOutcome, onlyIfCachedMiss } from './cache-answers.js';
import { inputBytes, type ResolvedInput, validateInput } from './input.js';
import { runPipeline } from './pipeline-run.js';
import type { RunMemory } from './run-memory.js';
import { logFailure, roundMs, runRecord, toRunError } from './run-report.js';
import { traceCheck, traceLookup, tracePool, traceRun } from './run-spans.js';
import type { RunCall, RunFailure, RunResult } from './run-types.js';
import { checkSwitches } from './switches.js';

export interface FacadeParts {
  tools: Map<string, RegisteredTool>;
  policies: Map<string, ToolPolicy>;
  validators: Map<string, ValidateFunction>;
  runsEnabled: boolean;
  limits: Limits;
  /** The worker pools (src/pool/groups.ts): what the facade needs of them. */
  pool: { run(call: PoolRun): Promise<RunOutcome> };
  metrics: HubMetrics;
  /** The result cache and the tools' content addresses (src/cache/run-cache.ts). */
  cache: RunCache;
  /** Runs reserve their working memory here before the pool (src/run/run-memory.ts); null: off. */
  runMemory?: RunMemory | null;
  /** The named pipelines, served as tools (src/pipelines/pipeline-set.ts); null: none. */
  pipelines?: PipelineSet | null;
  /** PIPELINE_TIMEOUT_MS: the most wall time of one pipeline. */
  pipelineTimeoutMs?: number;
}

/** A run checked and addressed but not yet admitted: what prepare() hands to execute(). */
export interface PreparedRun {
  call: RunCall;
  def: ToolSpec;
  policy: ToolPolicy;
  resolved: ResolvedInput;
  bytes: number;
  meta: RunMeta;
  /** Its content key and ETag; null when the tool is not deterministic for this input. */
  address: RunAddress | null;
  /** A named pipeline's run: its steps are runs of their own (src/run/pipeline-run.ts). */
  pipeline?: NamedPipeline;
}

export type Prepared = { ok: true; run: PreparedRun } | { ok: false; error: HubError };

/**
 * The one entry for a run, behind every surface (generic runtime, dedicated endpoints,
 * MCP, batch requests): switches → input size → input schema → content address (prepare),
 * then the result cache → limits (src/limits/limits.ts) → pool (execute). It never throws
 * for an error of the run's: the caller gets a typed RunResult and only translates it (an HTTP body, an MCP
 * result, a batch item).
 */
export class RunFacade {
  private readonly tierPolicies: TierPolicies;

  constructor(private readonly parts: FacadeParts) {
    this.tierPolicies = new TierPolicies(parts.policies);
  }

  get tools(): Map<string, RegisteredTool> {
    return this.parts.tools;
  }

  /** Whether `id` is served: a tool's or a named pipeline's. */
  knows(id: string): boolean {
    return this.parts.tools.has(id) || this.parts.pipelines?.get(id) !== undefined;
  }

  /** The tools and the named pipelines as they are now (the pipelines change on SIGHUP). */
  get served(): Map<string, RegisteredTool> {
    return this.parts.pipelines?.tools ?? this.parts.tools;
  }

  /**
   * An ad hoc pipeline (POST /api/pipelines/run), its definition already checked: each step a
   * run under the caller's limits (docs/api.md, "Pipelines").
   */
  runSteps(
    call: Omit<RunCall, 'toolId' | 'resolve'>,
    steps: readonly PipelineStep[],
    input: Record<string, unknown>,
  ): Promise<RunResult> {
    const meta: RunMeta = {
      toolId: 'pipeline',
      requestId: call.requestId,
      surface: call.surface,
      source: call.source,
      timeoutMs: this.pipelineTimeoutMs,
      durationMs: 0,
      queuedMs: 0,
    };
    const whole: RunCall = { ...call, toolId: 'pipeline', resolve: () => ({ mode: 'run', input }) };
    return runPipeline({ steps, input, call: whole, meta }, (c) => this.run(c));
  }

  private get pipelineTimeoutMs(): number {
    return this.parts.pipelineTimeoutMs ?? 30_000;
  }

  /** The caller's usage of every tool's limits under its tier (GET /api/usage, MCP `toolhub://usage`). */
  usage(client: string, tier: Tier | undefined): Promise<Usage> {
    const policies = [...this.parts.tools.keys()]
      .sort()
      .map((id) => [id, this.tierPolicies.get(id, tier)] as const);
    return usageReport(this.parts.limits, client, tier, policies);
  }

  /** What the result cache's in-process layer holds (the metrics). */
  get cacheMemory(): { entries: number; bytes: number } {
    return this.parts.cache.memoryStats;
  }

  async run(call: RunCall): Promise<RunResult> {
    const prepared = this.prepare(call);
    if (!prepared.ok) return prepared;
    const { address } = prepared.run;
    return this.execute(prepared.run, address !== null && matchesEtag(call.ifNoneMatch, address.etag));
  }

  /** Everything a run is checked for before it costs anything (a batch request's If-None-Match reads the addresses). */
  prepare(call: RunCall): Prepared {
    const tool = this.parts.tools.get(call.toolId);
    // A named pipeline is checked as a tool is; its steps are checked as runs of their own.
    const pipeline = tool ? undefined : this.parts.pipelines?.get(call.toolId);
    if (!tool && !pipeline) {
      const known = [...this.served.keys()].join(', ');
      return {
        ok: false,
        error: new HubError('INVALID_INPUT', `unknown toolId ${quote(call.toolId)}; known: ${known}`),
      };
    }
    const def = tool ? tool.def : pipeline!.tool.def;
    const policy = tool ? this.tierPolicies.get(def.id, call.tier) : pipeline!.policy;
    const meta: RunMeta = {
      toolId: def.id,
      requestId: call.requestId,
      surface: call.surface,
      source: call.source,
      // A pipeline's step runs under what is left of the pipeline's time, when that is less.
      timeoutMs: pipeline
        ? this.pipelineTimeoutMs
        : Math.min(policy.timeoutMs, call.timeoutCapMs ?? policy.timeoutMs),
      durationMs: 0,
      queuedMs: 0,
    };
    try {
      checkSwitches(this.parts.runsEnabled, def, policy, call.surface);
      const resolved = call.resolve(def);
      meta.mode = resolved.mode;
      const bytes = inputBytes(resolved);
      if (bytes > policy.inputMaxBytes) {
        throw new HubError(
          'INPUT_TOO_LARGE',
          `input is ${bytes} bytes; ${def.id} accepts at most ${policy.inputMaxBytes}`,
        );
      }
      const validator = tool ? this.parts.validators.get(def.id) : this.parts.pipelines!.validator(def.id);
      validateInput(def, validator!, resolved);
      if (pipeline)
        return { ok: true, run: { call, def, policy, resolved, bytes, meta, address: null, pipeline } };
      const address = this.parts.cache.addressOf(def, resolved.mode, resolved.input);
      return { ok: true, run: { call, def, policy, resolved, bytes, meta, address } };
    } catch (err) {
      return this.fail(call, def.id, meta, undefined, err);
    }
  }

  /**
   * Admits and answers a prepared run. `validated`: the caller holds the current result
   * (If-None-Match named its ETag), so the answer is 304 and nothing runs. A hit, like a 304
   * and like only-if-cached's 504, counts toward the rate limit but takes no slot and no budget;
   * a computation the call's Cache-Control forced is a run like any other (docs/api.md).
   */
  execute(p: PreparedRun, validated = false): Promise<RunResult> {
    if (p.pipeline) {
      const run = { steps: p.pipeline.steps, input: p.resolved.input, call: p.call, meta: p.meta };
      return runPipeline(run, (c) => this.run(c));
    }
    return tracingOn()
      ? traceRun(p.call, p.def.id, p.resolved.mode, () => this.executeNow(p, validated))
      : this.executeNow(p, validated);
  }

  private async executeNow(p: PreparedRun, validated: boolean): Promise<RunResult> {
    const { call, def, policy, meta, address } = p;
    const { cache, metrics } = this.parts;
    const directives = call.cacheControl;
    let rate: RateReport | undefined;
    try {
      const { hit, declined } =
        validated || address === null || policy.cacheTtlSec <= 0
          ? {}
          : tracingOn()
            ? await traceLookup(def.id, () => cache.lookup(def.id, address.key, directives))
            : await cache.lookup(def.id, address.key, directives);
      // only-if-cached with nothing to answer from: an answer without a run, as a hit is.
      const notCached = !validated && hit === undefined && directives?.onlyIfCached === true;
      const admit = () =>
        this.parts.limits.check(def.id, call.client, policy, {
          cached: validated || hit !== undefined || notCached,
          tier: call.tier,
        });
      const check = tracingOn() ? await traceCheck(admit) : await admit();
      rate = rateReport(def.id, policy, call.tier, check);
      const tier = call.tier?.name ?? 'none';
      if (!check.ok) {
        const { code, message, retryAfterSec, quota } = check.refusal;
        if (quota) metrics.quota.refused(tier, quota);
        // The report names the limit that refused, in the headers and in `rateLimit`.
        throw new HubError(code, message, {
          headers: { ...rate.headers, 'Retry-After': retryAfterSec },
          rateLimit: rate.info,
        });
      }
      if (check.quota) {
        const q = check.quota;
        metrics.quota.used(tier, q.entry, q.used, q.limit, q.msLeft);
      }
      if (notCached) throw onlyIfCachedMiss(def.id, address, policy.cacheTtlSec, declined, rate);
      const etag = address ? { etag: address.etag } : {};
      if (validated || hit) {
        metrics.recordRun(runRecord(call, def.id, 'ok'));
        if (validated) {
          const outcome = cache.validated(def.id);
          return {
            ok: true,
            toolId: def.id,
            resultJson: '',
            meta,
            rate,
            cache: outcome,
            ...etag,
            notModified: true,
          };
        }
        meta.cached = true;
        const outcome = hitOutcome(hit!);
        return { ok: true, toolId: def.id, resultJson: hit!.json, meta, rate, cache: outcome, ...etag };
      }
      const outcome = await this.runOnPool(p, check.lease!, rate);
      meta.durationMs = roundMs(outcome.durationMs);
      meta.queuedMs = roundMs(outcome.queuedMs);
      const result = outcome.ok ? 'ok' : outcome.code;
      metrics.recordRun(runRecord(call, def.id, result, outcome.durationMs, outcome.queuedMs));
      if (!outcome.ok) {
        logFailure(call, outcome, policy);
        return { ok: false, error: toRunError(outcome, meta, rate) };
      }
      // A cache write is awaited (every replica has the result once it is answered); a bypass takes no turn.
      let kept = cache.keep(def.id, address, outcome.json, policy.cacheTtlSec, directives, declined);
      if (kept instanceof Promise) kept = await kept;
      return { ok: true, toolId: def.id, resultJson: outcome.json, meta, rate, cache: kept, ...etag };
    } catch (err) {
      return this.fail(call, def.id, meta, rate, err);
    }
  }

  /** The run on the pool, its memory reserved first; the lease given back whatever happens. */
  private async runOnPool(p: PreparedRun, lease: Lease, rate: RateReport): Promise<RunOutcome> {
    let outcome: RunOutcome | undefined;
    let memory: Reservation | undefined;
    try {
      if (this.parts.runMemory)
        memory = await this.parts.runMemory.take(p.call.client, p.bytes, rate.headers);
      const run = {
        toolId: p.def.id,
        mode: p.resolved.mode,
        input: p.resolved.input,
        timeoutMs: p.meta.timeoutMs,
        bytes: p.bytes,
      };
      outcome = tracingOn() ? await tracePool(run, this.parts.pool) : await this.parts.pool.run(run);
      return outcome;
    } finally {
      memory?.release();
      await this.parts.limits.release(lease, outcome?.durationMs ?? 0);
    }
  }

  /**
   * An error as the run's answer: its meta and rate report attached (the report also apart,
   * for a batch request's answer to merge), counted in the metrics.
   */
  private fail(
    call: RunCall,
    toolId: string,
    meta: RunMeta,
    rate: RateReport | undefined,
    err: unknown,
  ): RunFailure {
    if (!(err instanceof HubError)) throw err;
    err.runtime ??= meta;
    this.parts.metrics.recordRun(runRecord(call, toolId, err.code));
    if (!rate) return { ok: false, error: err };
    err.rateLimit ??= rate.info;
    return { ok: false, error: err, rate };
  }
}
