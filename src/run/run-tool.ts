import type { ValidateFunction } from 'ajv';
import type { ToolPolicy } from '../config/policy.js';
import { HubError, type RateLimitInfo } from '../errors.js';
import type { Admission, AdmissionLease } from '../limits/admission.js';
import type { ToolInFlight } from '../limits/in-flight.js';
import type { RateDecision, RateLimits } from '../limits/rate-limit.js';
import { endOfTurn } from '../limits/redis-batch.js';
import type { WaitLines } from '../limits/wait-lines.js';
import type { HubMetrics } from '../metrics.js';
import type { ToolPool } from '../pool/pool.js';
import type { RegisteredTool } from '../registry.js';
import { quote } from '../shared/quote.js';
import type { ToolDefinition } from '../shared/tool-def.js';
import { inputBytes, type ResolvedInput, validateInput } from './input.js';
import { ResultCache } from './result-cache.js';

/** Everything a run needs, built once by buildApp. */
export interface Hub {
  tools: Map<string, RegisteredTool>;
  policies: Map<string, ToolPolicy>;
  validators: Map<string, ValidateFunction>;
  runtimeEnabled: boolean;
  rate: RateLimits;
  admission: Admission;
  inFlight: ToolInFlight;
  /** Runs past the per-client or per-tool cap wait here, up to `capWaitMs`. */
  waitLines: WaitLines;
  capWaitMs: number;
  pool: ToolPool;
  metrics: HubMetrics;
  cache: ResultCache;
}

export type Surface = 'runtime' | 'dedicated';

export interface ToolCall {
  toolId: string;
  surface: Surface;
  source: string;
  /** Maps the request onto the tool's mode and named input (differs per surface). */
  resolve: (def: ToolDefinition) => ResolvedInput;
  client: string;
  requestId: string;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface RunAnswer {
  toolId: string;
  headers: Record<string, string | number>;
  /** The ToolRunSuccess body, already serialised. */
  body: string;
}

/**
 * The one path of a run, shared by the generic runtime and the dedicated endpoints:
 * switches → input size → input schema → rate limit, budget and per-client cap (one
 * Redis round trip) → per-tool cap → pool. Every refusal is a HubError.
 */
export async function runTool(hub: Hub, call: ToolCall): Promise<RunAnswer> {
  const tool = hub.tools.get(call.toolId);
  if (!tool) {
    throw new HubError(
      'INVALID_INPUT',
      `unknown toolId ${quote(call.toolId)}; known: ${[...hub.tools.keys()].join(', ')}`,
    );
  }
  const def = tool.def;
  const policy = hub.policies.get(def.id)!;
  const runtime: Record<string, unknown> = {
    toolId: def.id,
    requestId: call.requestId,
    surface: call.surface,
    source: call.source,
    timeoutMs: policy.timeoutMs,
    durationMs: 0,
    queuedMs: 0,
  };
  const fail = (err: HubError, rl?: RateLimitInfo, headers?: Record<string, string | number>) => {
    err.runtime = runtime;
    if (rl) err.rateLimit = rl;
    if (headers) Object.assign(err.headers, headers);
    hub.metrics.recordRun(def.id, call.surface, call.source, err.code, 0, -1);
    return err;
  };

  try {
    checkSwitches(hub, def, policy, call.surface);
    const resolved = call.resolve(def);
    runtime.mode = resolved.mode;
    const bytes = inputBytes(resolved);
    if (bytes > policy.inputMaxBytes) {
      throw new HubError(
        'INPUT_TOO_LARGE',
        `input is ${bytes} bytes; ${def.id} accepts at most ${policy.inputMaxBytes}`,
      );
    }
    validateInput(def, hub.validators.get(def.id)!, resolved);
    return await admitAndRun(hub, call, def, policy, { ...resolved, bytes }, runtime, fail);
  } catch (err) {
    if (err instanceof HubError && !err.runtime) throw fail(err);
    throw err;
  }
}

function checkSwitches(hub: Hub, def: ToolDefinition, policy: ToolPolicy, surface: Surface): void {
  if (!hub.runtimeEnabled)
    throw new HubError('RUNTIME_DISABLED', 'the tool runtime is switched off by the operator');
  if (!policy.enabled) throw new HubError('TOOL_DISABLED', `${def.id} is switched off by the operator`);
  if (surface === 'runtime' && !policy.runtimeSurface) {
    const paths = def.endpoints.map((e) => `${e.methods.join('/')} ${e.path}`).join(', ');
    throw new HubError('TOOL_WRONG_SURFACE', `${def.id} is not callable on /api/tools/run/; use ${paths}`);
  }
}

type Fail = (err: HubError, rl?: RateLimitInfo, headers?: Record<string, string | number>) => HubError;

async function admitAndRun(
  hub: Hub,
  call: ToolCall,
  def: ToolDefinition,
  policy: ToolPolicy,
  resolved: ResolvedInput & { bytes: number },
  runtime: Record<string, unknown>,
  fail: Fail,
): Promise<RunAnswer> {
  const cacheKey = policy.cacheTtlSec > 0 ? ResultCache.key(def.id, resolved.mode, resolved.input) : null;
  const cached = cacheKey === null ? undefined : hub.cache.get(cacheKey);
  // With Redis, every request of this event-loop turn sends its limiter commands together:
  // one write and one reply for all of them (src/limits/redis-batch.ts).
  if (hub.rate.shared) await endOfTurn();
  // Admission first: its batched script call then joins the rate-limit commands' pipeline.
  const admission = cached === undefined ? hub.admission.admit(def.id, call.client, policy) : null;
  const [rate, admitted] = await Promise.all([hub.rate.consume(def.id, call.client), admission]);
  const rl = rateLimitInfo(policy, rate);
  const headers = rateHeaders(def.id, policy, rate);
  let lease = admitted && 'store' in admitted ? admitted : null;
  if (!rate.allowed) {
    if (lease) await hub.admission.release(lease, policy, 0);
    headers['Retry-After'] = rate.retryAfterSec;
    throw fail(new HubError('RATE_LIMITED', rateMessage(def.id, policy)), rl, headers);
  }
  let refusal = admitted && !lease ? (admitted as Exclude<typeof admitted, AdmissionLease>) : null;
  const line = `${def.id}\0${call.client}`;
  const waitUntil = Date.now() + hub.capWaitMs;
  if (refusal?.code === 'CONCURRENCY_LIMIT') {
    // Past the per-client cap: wait for one of this client's runs to end, in its own line.
    const got = await hub.waitLines.acquire(line, waitUntil, async () => {
      const again = await hub.admission.admit(def.id, call.client, policy);
      // A lease ends the wait, and so does a spent budget; the cap again means wait on.
      return 'store' in again || again.code === 'BUDGET_EXCEEDED' ? again : null;
    });
    if (got && 'store' in got) {
      lease = got;
      refusal = null;
    } else if (got) {
      refusal = got;
    }
  }
  if (refusal) {
    headers['Retry-After'] = refusal.retryAfterSec;
    throw fail(new HubError(refusal.code, refusal.message), rl, headers);
  }
  if (cached !== undefined) {
    runtime.cached = true;
    hub.metrics.recordRun(def.id, call.surface, call.source, 'ok', 0, -1);
    return { toolId: def.id, headers, body: success(cached, runtime) };
  }
  // The tool's cap on this instance: past it, wait in the tool's line.
  const toolSlot = () => (hub.inFlight.tryAcquire(def.id, policy.maxInFlight) ? true : null);
  if (!toolSlot() && !(await hub.waitLines.acquire(def.id, waitUntil, async () => toolSlot()))) {
    await hub.admission.release(lease!, policy, 0);
    hub.waitLines.notify(line);
    headers['Retry-After'] = 1;
    const msg = `${def.id} already has ${policy.maxInFlight} runs in flight on this instance`;
    throw fail(new HubError('CONCURRENCY_LIMIT', msg), rl, headers);
  }
  let outcome: Awaited<ReturnType<ToolPool['run']>>;
  try {
    outcome = await hub.pool.run({
      toolId: def.id,
      mode: resolved.mode,
      input: resolved.input,
      timeoutMs: policy.timeoutMs,
      bytes: resolved.bytes,
    });
  } finally {
    hub.inFlight.release(def.id);
    hub.waitLines.notify(def.id);
  }
  // Awaited, so the slot and the charge are in the store before the client hears back: a
  // client that calls another instance next finds them there. The releases of a turn go
  // out together in one script call; release never throws (a failure charges in-process).
  await hub.admission.release(lease!, policy, outcome.durationMs);
  hub.waitLines.notify(line);
  runtime.durationMs = round(outcome.durationMs);
  runtime.queuedMs = round(outcome.queuedMs);
  hub.metrics.recordRun(
    def.id,
    call.surface,
    call.source,
    outcome.ok ? 'ok' : outcome.code,
    outcome.durationMs,
    outcome.queuedMs,
  );
  if (outcome.ok) {
    if (cacheKey !== null) hub.cache.set(cacheKey, outcome.json, policy.cacheTtlSec);
    return { toolId: def.id, headers, body: success(outcome.json, runtime) };
  }
  if (outcome.detail) call.log.error({ toolId: def.id, detail: outcome.detail }, 'tool run failed');
  if (outcome.code === 'TIMEOUT') {
    call.log.warn(
      { toolId: def.id, client: call.client, timeoutMs: policy.timeoutMs },
      'run passed its deadline; its worker was terminated',
    );
  }
  if (outcome.code === 'CONCURRENCY_LIMIT') headers['Retry-After'] = 1;
  const err = new HubError(outcome.code, outcome.message, outcome.status ? { status: outcome.status } : {});
  err.runtime = runtime;
  err.rateLimit = rl;
  Object.assign(err.headers, headers);
  throw err;
}

function success(resultJson: string, runtime: Record<string, unknown>): string {
  return `{"ok":true,"result":${resultJson},"runtime":${JSON.stringify(runtime)}}`;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function rateMessage(toolId: string, policy: ToolPolicy): string {
  return `rate limit of ${policy.limit} runs (+${policy.burst} burst) per ${policy.windowSec} s for ${toolId} is spent`;
}

function rateLimitInfo(policy: ToolPolicy, rate: RateDecision): RateLimitInfo {
  return {
    limit: policy.limit,
    burst: policy.burst,
    windowSec: policy.windowSec,
    remaining: rate.remaining,
    resetMs: rate.resetMs,
    retryAfterSec: rate.retryAfterSec,
  };
}

/** IETF RateLimit fields (draft -11) and the widely read X-RateLimit-* (CONTRACT §5). */
function rateHeaders(
  toolId: string,
  policy: ToolPolicy,
  rate: RateDecision,
): Record<string, string | number> {
  const resetSec = Math.ceil(rate.resetMs / 1000);
  return {
    'RateLimit-Policy': `"${toolId}";q=${policy.limit};w=${policy.windowSec}`,
    RateLimit: `"${toolId}";r=${rate.remaining};t=${resetSec}`,
    'X-RateLimit-Limit': policy.limit + policy.burst,
    'X-RateLimit-Remaining': rate.remaining,
    'X-RateLimit-Reset': resetSec,
  };
}
