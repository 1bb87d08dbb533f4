import type { ToolPolicy } from '../config/policy.js';
import type { RegisteredTool } from '../registry.js';
import { SOURCES } from '../run-meta.js';
import type { ToolSpec } from '../shared/tool-def.js';

/** "web, api (default), mcp or direct_framework", from the one list of sources. */
const SOURCES_IN_WORDS = ((names: string[]) => `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`)(
  SOURCES.map((s) => (s === 'api' ? 'api (default)' : s)),
);

/** Version of the `agentContract` object of every descriptor (docs/api.md, "Catalogue for agents"). */
export const CONTRACT_VERSION = '2.0.0';
export const RUNTIME_PATH = '/api/tools/run/';
export const OPENAPI_PATH = '/api/openapi.yaml';

export interface CatalogueContext {
  /** Public base address of the hub (no trailing slash). */
  baseUrl: string;
  tools: Map<string, RegisteredTool>;
  policies: Map<string, ToolPolicy>;
  runsEnabled: boolean;
  /** Most runs in one batch (BATCH_MAX_RUNS). */
  batchMaxRuns?: number;
  /** JOBS_BATCH_MAX_RUNS: the most runs of a batch job. */
  jobsBatchMaxRuns?: number;
}

/** Whether a remote client can call the tool right now (operator switches included). */
export function remoteCallable(ctx: CatalogueContext, id: string): boolean {
  return ctx.runsEnabled && ctx.policies.get(id)!.enabled;
}

/**
 * The policy object descriptors publish (`agentContract.runtime.policy`), from the
 * effective policy: operator overrides included (fields in docs/api.md, "The policy file").
 */
export function policyView(p: ToolPolicy): Record<string, unknown> {
  return {
    limit: p.limit,
    burst: p.burst,
    windowSec: p.windowSec,
    inputMaxBytes: p.inputMaxBytes,
    timeoutMs: p.timeoutMs,
    cacheTtlSec: p.cacheTtlSec,
    networkEnabled: p.networkEnabled,
    memoryMb: p.memoryMb,
    supportsStreaming: p.supportsStreaming,
    riskClass: p.riskClass,
    enabled: p.enabled,
    runtimeSurface: p.runtimeSurface,
    maxInFlight: p.maxInFlight,
    maxInFlightPerClient: p.maxInFlightPerClient,
    computeBudgetMs: p.computeBudgetMs,
  };
}

/** The tool descriptor: the `tool` member of GET /api/tools/{toolId}.json (docs/api.md, "Catalogue for agents"). */
export function describeTool(ctx: CatalogueContext, def: ToolSpec): Record<string, unknown> {
  const policy = ctx.policies.get(def.id)!;
  const callable = remoteCallable(ctx, def.id);
  const endpoints = def.endpoints.flatMap((ep) =>
    ep.methods.map((method) => ({ method, path: ep.path, summary: ep.summary })),
  );
  return {
    id: def.id,
    name: def.name,
    description: def.description,
    category: def.category,
    icon: def.icon,
    keywords: def.keywords,
    ...(def.hasApi === undefined ? {} : { hasApi: def.hasApi }),
    remoteCallable: callable,
    remoteMode: 'dedicated_api',
    riskClass: policy.riskClass,
    maxInputBytes: policy.inputMaxBytes,
    timeoutMs: policy.timeoutMs,
    supportsStreaming: policy.supportsStreaming,
    url: `/tools/${def.id}/`,
    tags: def.tags,
    faqs: def.faqs,
    howTo: def.howTo,
    agentContract: {
      toolId: def.id,
      contractVersion: CONTRACT_VERSION,
      remote_callable: callable,
      remote_mode: 'dedicated_api',
      risk_class: policy.riskClass,
      max_input_bytes: policy.inputMaxBytes,
      timeout_ms: policy.timeoutMs,
      supports_streaming: policy.supportsStreaming,
      preferred_surface: 'dedicated_api',
      dedicated_api: {
        baseUrl: ctx.baseUrl,
        openapiUrl: `${ctx.baseUrl}${OPENAPI_PATH}`,
        endpoints,
        riskClass: policy.riskClass,
        inputMaxBytes: policy.inputMaxBytes,
        timeoutMs: policy.timeoutMs,
      },
      runtime: runtimeContract(def, policy),
      semantic_fields: def.semanticFields,
    },
    relatedTools: def.relatedTools.map((id) => {
      const rel = ctx.tools.get(id)!.def;
      return { id, name: rel.name, url: `/tools/${id}/`, category: rel.category };
    }),
  };
}

function runtimeContract(def: ToolSpec, policy: ToolPolicy): Record<string, unknown> {
  const slot = (s: 'a' | 'b' | 'c') => {
    const names = [
      ...new Set([def.fields[s], ...Object.values(def.fieldsByMode ?? {}).map((f) => f[s])]),
    ].filter((n): n is string => typeof n === 'string');
    return names.length
      ? `${names.join(' or ')}: ${names.map((n) => def.semanticFields[n] ?? n).join(' / ')}`
      : 'unused';
  };
  return {
    endpoint: RUNTIME_PATH,
    methods: ['GET', 'POST'],
    queryParams: [
      { name: 'toolId', required: true, description: `Always '${def.id}'` },
      { name: 'a', required: true, description: slot('a') },
      { name: 'b', required: slotRequired(def, 'b'), description: slot('b') },
      { name: 'c', required: slotRequired(def, 'c'), description: slot('c') },
      {
        name: 'mode',
        required: false,
        description: `One of ${def.modes.join(', ')} (default ${def.modes[0]})`,
      },
      { name: 'source', required: false, description: SOURCES_IN_WORDS },
    ],
    postBodyShape: {
      toolId: 'string',
      source: `string (optional): ${SOURCES.join(' | ')}`,
      input: { a: 'string', b: 'string (optional)', c: 'string (optional)', mode: 'string (optional)' },
    },
    exampleGet: `${RUNTIME_PATH}?toolId=${def.id}&a={a}`,
    policy: policyView(policy),
  };
}

/** Whether every field a slot carries (in any mode) is a required field (a named pipeline's inputs are). */
function slotRequired(def: ToolSpec, s: 'b' | 'c'): boolean {
  const required = new Set((def.input.required as string[] | undefined) ?? []);
  const names = [def.fields[s], ...Object.values(def.fieldsByMode ?? {}).map((f) => f[s])].filter(
    (n): n is string => typeof n === 'string',
  );
  return names.length > 0 && names.every((n) => required.has(n));
}
