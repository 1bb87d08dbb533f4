import type { ValidateFunction } from 'ajv';
import { TierPolicies } from '../auth/tiers.js';
import type { ToolPolicy } from '../config/policy.js';
import { HubError } from '../errors.js';
import type { Reservation } from '../http/memory-budget.js';
import type { Limits } from '../limits/limits.js';
import { type RateReport, rateReport } from '../limits/rate-report.js';
import type { HubMetrics, RunRecord } from '../metrics.js';
import type { RunOutcome } from '../pool/outcome.js';
import type { ToolPool } from '../pool/pool.js';
import type { RegisteredTool } from '../registry.js';
import type { RunMeta, Surface } from '../run-meta.js';
import { quote } from '../shared/quote.js';
import type { ToolDefinition } from '../shared/tool-def.js';
import { inputBytes, validateInput } from './input.js';
import { ResultCache } from './result-cache.js';
import type { RunMemory } from './run-memory.js';
import type { RunCall, RunResult } from './run-types.js';

export interface HubParts {
  tools: Map<string, RegisteredTool>;
  policies: Map<string, ToolPolicy>;
  validators: Map<string, ValidateFunction>;
  runtimeEnabled: boolean;
  limits: Limits;
  pool: ToolPool;
  metrics: HubMetrics;
  /** Runs reserve their working memory here before the pool (src/run/run-memory.ts); null: off. */
  runMemory?: RunMemory | null;
}

/**
 * The one entry for a run, behind every surface (generic runtime, dedicated endpoints,
 * MCP, batch): switches → input size → input schema → limits (src/limits/limits.ts) →
 * pool. It never throws for a refusal: the caller gets a typed RunResult and only
 * translates it (an HTTP body, an MCP result, a batch item).
 */
export class Hub {
  private readonly cache = new ResultCache();
  private readonly tierPolicies: TierPolicies;

  constructor(private readonly parts: HubParts) {
    this.tierPolicies = new TierPolicies(parts.policies);
  }

  get tools(): Map<string, RegisteredTool> {
    return this.parts.tools;
  }

  async run(call: RunCall): Promise<RunResult> {
    const { tools, metrics } = this.parts;
    const tool = tools.get(call.toolId);
    if (!tool) {
      const known = [...tools.keys()].join(', ');
      return {
        ok: false,
        error: new HubError('INVALID_INPUT', `unknown toolId ${quote(call.toolId)}; known: ${known}`),
      };
    }
    const def = tool.def;
    const policy = this.tierPolicies.get(def.id, call.tier);
    const meta: RunMeta = {
      toolId: def.id,
      requestId: call.requestId,
      surface: call.surface,
      source: call.source,
      timeoutMs: policy.timeoutMs,
      durationMs: 0,
      queuedMs: 0,
    };
    let rate: RateReport | undefined;
    try {
      this.checkSwitches(def, policy, call.surface);
      const resolved = call.resolve(def);
      meta.mode = resolved.mode;
      const bytes = inputBytes(resolved);
      if (bytes > policy.inputMaxBytes) {
        throw new HubError(
          'INPUT_TOO_LARGE',
          `input is ${bytes} bytes; ${def.id} accepts at most ${policy.inputMaxBytes}`,
        );
      }
      validateInput(def, this.parts.validators.get(def.id)!, resolved);

      const cacheKey = policy.cacheTtlSec > 0 ? ResultCache.key(def.id, resolved.mode, resolved.input) : null;
      const cached = cacheKey === null ? undefined : this.cache.get(cacheKey);
      const check = await this.parts.limits.check(def.id, call.client, policy, {
        cached: cached !== undefined,
        tier: call.tier?.name ?? '',
      });
      rate = rateReport(def.id, policy, check.rate, check.ok ? 0 : check.refusal.retryAfterSec);
      if (!check.ok) {
        const { code, message, retryAfterSec } = check.refusal;
        throw new HubError(code, message, { headers: { ...rate.headers, 'Retry-After': retryAfterSec } });
      }
      if (cached !== undefined) {
        meta.cached = true;
        metrics.recordRun(this.record(call, def.id, 'ok'));
        return { ok: true, toolId: def.id, resultJson: cached, meta, rate };
      }
      const lease = check.lease!;
      let outcome: RunOutcome | undefined;
      let memory: Reservation | undefined;
      try {
        if (this.parts.runMemory) memory = await this.parts.runMemory.take(call.client, bytes, rate.headers);
        outcome = await this.parts.pool.run({
          toolId: def.id,
          mode: resolved.mode,
          input: resolved.input,
          timeoutMs: policy.timeoutMs,
          bytes,
        });
      } finally {
        memory?.release();
        await this.parts.limits.release(lease, outcome?.durationMs ?? 0);
      }
      meta.durationMs = round(outcome.durationMs);
      meta.queuedMs = round(outcome.queuedMs);
      metrics.recordRun(
        this.record(call, def.id, outcome.ok ? 'ok' : outcome.code, outcome.durationMs, outcome.queuedMs),
      );
      if (outcome.ok) {
        if (cacheKey !== null) this.cache.set(cacheKey, outcome.json, policy.cacheTtlSec);
        return { ok: true, toolId: def.id, resultJson: outcome.json, meta, rate };
      }
      this.logFailure(call, outcome, policy);
      return { ok: false, error: toRunError(outcome, meta, rate) };
    } catch (err) {
      if (!(err instanceof HubError)) throw err;
      err.runtime ??= meta;
      if (rate) err.rateLimit ??= rate.info;
      metrics.recordRun(this.record(call, def.id, err.code));
      return { ok: false, error: err };
    }
  }

  /** The run for the metrics, written out (a spread of labels is a slow generic copy per run). */
  private record(
    call: RunCall,
    tool: string,
    outcome: string,
    durationMs?: number,
    queuedMs?: number,
  ): RunRecord {
    return {
      tool,
      surface: call.surface,
      source: call.source,
      outcome,
      tier: call.tier?.name ?? 'none',
      durationMs,
      queuedMs,
    };
  }

  private checkSwitches(def: ToolDefinition, policy: ToolPolicy, surface: Surface): void {
    if (!this.parts.runtimeEnabled) {
      throw new HubError('RUNTIME_DISABLED', 'the tool runtime is switched off by the operator');
    }
    if (!policy.enabled) throw new HubError('TOOL_DISABLED', `${def.id} is switched off by the operator`);
    // A batch item is a generic runtime call: the operator's switch closes both doors.
    if ((surface === 'runtime' || surface === 'batch') && !policy.runtimeSurface) {
      const paths = def.endpoints.map((e) => `${e.methods.join('/')} ${e.path}`).join(', ');
      throw new HubError('TOOL_WRONG_SURFACE', `${def.id} is not callable on /api/tools/run/; use ${paths}`);
    }
  }

  private logFailure(call: RunCall, outcome: Extract<RunOutcome, { ok: false }>, policy: ToolPolicy): void {
    if (outcome.detail) call.log.error({ toolId: call.toolId, detail: outcome.detail }, 'tool run failed');
    if (outcome.code === 'TIMEOUT') {
      call.log.warn(
        { toolId: call.toolId, client: call.client, timeoutMs: policy.timeoutMs },
        'run passed its deadline; its worker was terminated',
      );
    }
  }
}

/** A failed run's outcome → the HubError its answer is, with the run's meta and rate report. */
export function toRunError(
  outcome: Extract<RunOutcome, { ok: false }>,
  meta: RunMeta,
  rate: RateReport,
): HubError {
  const headers: Record<string, string | number> = { ...rate.headers };
  if (outcome.code === 'CONCURRENCY_LIMIT') headers['Retry-After'] = 1;
  return new HubError(outcome.code, outcome.message, {
    ...(outcome.status ? { status: outcome.status } : {}),
    headers,
    runtime: meta,
    rateLimit: rate.info,
  });
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
