import { readFileSync } from 'node:fs';
import { lazyValidator } from '../ajv.js';
import type { RiskClass, ToolSpec } from '../shared/tool-def.js';
import { ConfigError, ENV_SCHEMA, type EnvConfig } from './env.js';
import { QUOTA_SCHEMA, type Quota } from './quota.js';
import type { ToolResources } from './resources.js';
import { yamlModule } from './yaml.js';

/** The effective policy of one tool: the module's defaults, then the operator's overrides. */
export interface ToolPolicy {
  limit: number;
  burst: number;
  windowSec: number;
  inputMaxBytes: number;
  timeoutMs: number;
  cacheTtlSec: number;
  enabled: boolean;
  runtimeSurface: boolean;
  maxInFlight: number;
  maxInFlightPerClient: number;
  computeBudgetMs: number;
  /** Runs and worker ms per client a UTC day and month (src/limits/quota.ts); none when absent. */
  quota?: Quota;
  /** Whether its runs may use the network: its manifest asks and TOOL_NETWORK allows (docs/tool-packages.md). */
  networkEnabled: boolean;
  /** Its workers' heap cap, MB: WORKER_HEAP_MB, or what its manifest asks within TOOL_MEMORY_MAX_MB. */
  memoryMb: number;
  supportsStreaming: false;
  riskClass: RiskClass;
}

/** Defaults for the fields a tool module does not declare (README "Limits"). */
export const POLICY_DEFAULTS = {
  cacheTtlSec: 0,
  enabled: true,
  runtimeSurface: true,
  maxInFlight: 16,
  maxInFlightPerClient: 4,
  /** Worker milliseconds per client and tool per window: half a worker thread at most. */
  computeBudgetFraction: 0.5,
} as const;

const int = (min: number, max: number) => ({ type: 'integer', minimum: min, maximum: max });
export const POLICY_OVERRIDE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: int(1, 1_000_000_000),
    burst: int(0, 1_000_000_000),
    windowSec: int(1, 86_400),
    inputMaxBytes: int(1, 268_435_456),
    timeoutMs: int(1, 600_000),
    cacheTtlSec: int(0, 86_400),
    enabled: { type: 'boolean' },
    runtimeSurface: { type: 'boolean' },
    maxInFlight: int(1, 100_000),
    maxInFlightPerClient: int(1, 100_000),
    computeBudgetMs: int(1, 1_000_000_000_000),
    quota: QUOTA_SCHEMA,
  },
} as const;

export const FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    runtimeEnabled: { type: 'boolean' },
    tools: { type: 'object', additionalProperties: POLICY_OVERRIDE_SCHEMA },
  },
} as const;

export type PolicyOverride = Partial<
  Omit<ToolPolicy, 'networkEnabled' | 'memoryMb' | 'supportsStreaming' | 'riskClass'>
>;
export interface PolicyFile {
  runtimeEnabled?: boolean;
  tools?: Record<string, PolicyOverride>;
}

const fileValidator = lazyValidator<PolicyFile>(FILE_SCHEMA, { allErrors: true });

/**
 * Deepest nesting of `[`/`{` a policy file may have (the file itself needs 3). The YAML
 * parser recurses per level and runs out of stack past a few hundred, which printed
 * "Maximum call stack size exceeded" with a code frame. Brackets inside strings count too:
 * a policy file holds tool ids, field names and numbers, never 32 of them.
 */
export const POLICY_MAX_DEPTH = 32;
/** An error about the file is one line of at most this many characters (src/server.ts prints it as is). */
const POLICY_ERROR_MAX_CHARS = 500;

/** Reads and checks POLICY_FILE (JSON or YAML); every problem names the file and the field, on one line. */
export function readPolicyFile(path: string): PolicyFile {
  let data: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    if (nestingDepth(text) > POLICY_MAX_DEPTH) throw new RangeError('too deep');
    data = /\.ya?ml$/i.test(path) ? yamlModule().parse(text) : JSON.parse(text);
  } catch (err) {
    throw policyError(path, readProblem(err));
  }
  const validateFile = fileValidator();
  if (!validateFile(data)) {
    const problems = (validateFile.errors ?? []).map((e) => {
      const extra = e.params.additionalProperty ? ` '${e.params.additionalProperty}'` : '';
      return `${e.instancePath || '/'} ${e.message}${extra}`;
    });
    throw policyError(path, problems.join('; '));
  }
  return data;
}

function policyError(path: string, problem: string): ConfigError {
  const line = `POLICY_FILE ${path}: ${problem}`.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, escapeChar);
  const max = POLICY_ERROR_MAX_CHARS;
  return new ConfigError(line.length <= max ? line : `${line.slice(0, max - 1)}…`);
}

/** Why the file could not be read or parsed, without the yaml library's code frame. */
function readProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof RangeError || message.includes('Maximum call stack size exceeded')) {
    return `nested deeper than ${POLICY_MAX_DEPTH} levels`;
  }
  // A YAML error's first line names the line and column; a code frame follows it.
  if (err instanceof Error && 'linePos' in err) return (message.split('\n')[0] ?? '').replace(/:$/, '');
  return message;
}

function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return max;
}

function escapeChar(c: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Every tool's effective policy; unknown toolIds in the file or DISABLED_TOOLS stop the boot. */
export function resolvePolicies(
  tools: readonly ToolSpec[],
  env: Pick<EnvConfig, 'DISABLED_TOOLS'>,
  file: PolicyFile,
  /** Each tool's memory cap and network (src/config/resources.ts); absent: the defaults. */
  resources: ReadonlyMap<string, ToolResources> = new Map(),
): Map<string, ToolPolicy> {
  const known = new Set(tools.map((t) => t.id));
  const disabled = env.DISABLED_TOOLS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of [...Object.keys(file.tools ?? {}), ...disabled]) {
    if (!known.has(id)) throw new ConfigError(`unknown toolId '${id}' (known: ${[...known].join(', ')})`);
  }
  const policies = new Map<string, ToolPolicy>();
  for (const tool of tools) {
    const override = file.tools?.[tool.id] ?? {};
    const windowSec = override.windowSec ?? tool.policy.windowSec;
    const policy: ToolPolicy = {
      ...tool.policy,
      cacheTtlSec: POLICY_DEFAULTS.cacheTtlSec,
      enabled: POLICY_DEFAULTS.enabled,
      runtimeSurface: POLICY_DEFAULTS.runtimeSurface,
      maxInFlight: POLICY_DEFAULTS.maxInFlight,
      maxInFlightPerClient: POLICY_DEFAULTS.maxInFlightPerClient,
      computeBudgetMs: Math.round(windowSec * 1000 * POLICY_DEFAULTS.computeBudgetFraction),
      ...override,
      networkEnabled: resources.get(tool.id)?.network ?? false,
      memoryMb: resources.get(tool.id)?.memoryMb ?? ENV_SCHEMA.properties.WORKER_HEAP_MB.default,
      supportsStreaming: false,
      riskClass: tool.riskClass,
    };
    if (disabled.includes(tool.id)) policy.enabled = false;
    policies.set(tool.id, policy);
  }
  return policies;
}
