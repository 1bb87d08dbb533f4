import type { ToolPolicy } from '../config/policy.js';
import type { RegisteredTool } from '../registry.js';
import { isObject } from '../shared/is-object.js';
import { type JsonSchema, RISK_CLASSES, type ToolSpec } from '../shared/tool-def-schema.js';
import { type CheckedPipeline, fromOf, type PipelineStep } from './check.js';

/** A named pipeline as the operator's file gives it (docs/api.md, "Pipelines"). */
export interface PipelineEntry {
  id: string;
  name: string;
  description: string;
  /** What each input field means, for agents and the page; default: the description of the field it feeds. */
  inputs?: Record<string, string>;
  /** An input for the page's form and the guide. */
  example?: Record<string, unknown>;
  steps: unknown[];
}

/** A named pipeline, checked, and everything the doors derive from it. */
export interface NamedPipeline {
  id: string;
  steps: PipelineStep[];
  /** The tool it is served as: its spec (one mode, `run`), a generated guide, its example. */
  tool: RegisteredTool;
  /** What its descriptor and page say of its limits: the tightest of its steps' (each step runs under its own). */
  policy: ToolPolicy;
}

/** The one mode of a pipeline served as a tool. */
export const PIPELINE_MODE = 'run';
/** Where a named pipeline is served: its dedicated route (`POST /api/pipelines/<id>/`). */
export const pipelinePath = (id: string) => `/api/pipelines/${id}/`;

/** Whether a spec is a named pipeline's (its one endpoint is under /api/pipelines/). */
export const isPipelineSpec = (def: ToolSpec) =>
  def.endpoints.every((ep) => ep.path.startsWith('/api/pipelines/'));

/**
 * A checked pipeline as a tool (docs/api.md, "Pipelines"): its input schema is the pipeline's
 * unbound fields, its output schema the last step's, its one mode `run`, its dedicated route
 * `/api/pipelines/<id>/`; the generic slots a/b/c carry its first three inputs (the rest are
 * options). Every door reads this spec as it reads a tool's, so a pipeline is listed,
 * documented and called like one.
 */
export function pipelineTool(
  entry: PipelineEntry,
  checked: CheckedPipeline,
  specOf: (id: string) => ToolSpec,
  policyOf: (id: string) => ToolPolicy,
  timeoutMs: number,
  origin: string,
): NamedPipeline {
  const specs = checked.steps.map((s) => specOf(s.toolId));
  const last = specs[specs.length - 1]!;
  const properties: Record<string, JsonSchema> = {};
  const semanticFields: Record<string, string> = {};
  for (const [name, schema] of Object.entries(checked.inputSchema.properties as Record<string, JsonSchema>)) {
    const description = entry.inputs?.[name] ?? String(schema.description ?? name);
    properties[name] = { ...schema, description };
    semanticFields[name] = description;
  }
  const names = Object.keys(properties);
  const steps = checked.steps;
  const policy = tightest(
    steps.map((s) => policyOf(s.toolId)),
    timeoutMs,
  );
  const def: ToolSpec = {
    id: entry.id,
    name: entry.name,
    description: entry.description,
    category: last.category,
    icon: last.icon,
    keywords: ['pipeline', ...new Set(steps.map((s) => s.toolId))],
    tags: ['pipeline'],
    riskClass: policy.riskClass,
    policy: {
      limit: policy.limit,
      burst: policy.burst,
      windowSec: policy.windowSec,
      inputMaxBytes: policy.inputMaxBytes,
      timeoutMs,
    },
    modes: [PIPELINE_MODE],
    modeField: null,
    fields: { a: names[0] ?? null, b: names[1] ?? null, c: names[2] ?? null },
    input: { ...checked.inputSchema, properties },
    output: checked.outputSchema,
    semanticFields,
    endpoints: [
      { path: pipelinePath(entry.id), methods: ['POST'], summary: entry.name, mode: PIPELINE_MODE },
    ],
    faqs: [],
    howTo: steps.map((s, i) => ({
      title: `Step ${i + 1}: ${specs[i]!.name}`,
      description: `${s.toolId}${s.mode ? ` (${s.mode})` : ''} with ${wiring(s)}`,
    })),
    relatedTools: [...new Set(steps.map((s) => s.toolId))],
    // The answer as a whole is not cached: each step's run is, like any run of its tool.
    deterministic: false,
  };
  const tool: RegisteredTool = {
    def,
    runPath: '',
    docsDir: '',
    origin,
    needs: { network: policy.networkEnabled },
    generated: {
      skillMd: guide(def, steps, entry.example),
      ...(entry.example ? { example: entry.example } : {}),
    },
  };
  return { id: entry.id, steps, tool, policy };
}

/**
 * What a pipeline's descriptor publishes of its limits: each field the tightest of its steps'
 * (the least rate, the fewest slots, the highest risk), `inputMaxBytes` the most any step takes
 * (each step measures its own), `timeoutMs` PIPELINE_TIMEOUT_MS. Nothing is enforced on these
 * numbers: every step is limited under its own tool's policy.
 */
function tightest(policies: ToolPolicy[], timeoutMs: number): ToolPolicy {
  const least = (f: (p: ToolPolicy) => number) => Math.min(...policies.map(f));
  const slowest = policies.reduce((a, b) => (b.limit / b.windowSec < a.limit / a.windowSec ? b : a));
  return {
    limit: slowest.limit,
    burst: slowest.burst,
    windowSec: slowest.windowSec,
    inputMaxBytes: Math.max(...policies.map((p) => p.inputMaxBytes)),
    timeoutMs,
    cacheTtlSec: 0,
    enabled: policies.every((p) => p.enabled),
    runtimeSurface: policies.every((p) => p.runtimeSurface),
    maxInFlight: least((p) => p.maxInFlight),
    maxInFlightPerClient: least((p) => p.maxInFlightPerClient),
    computeBudgetMs: least((p) => p.computeBudgetMs),
    networkEnabled: policies.some((p) => p.networkEnabled),
    memoryMb: Math.max(...policies.map((p) => p.memoryMb)),
    supportsStreaming: false,
    riskClass: RISK_CLASSES[Math.max(...policies.map((p) => RISK_CLASSES.indexOf(p.riskClass)))]!,
  };
}

/** A step's input in words: `input ← /input/csv, to = "json"`. */
function wiring(step: PipelineStep): string {
  const parts = Object.entries(step.input).map(([field, value]) => {
    const from = fromOf(value);
    return typeof from === 'string' ? `${field} ← ${from}` : `${field} = ${short(value)}`;
  });
  return parts.length ? parts.join(', ') : 'no input';
}

const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? 'null';
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
};

/** The SKILL-style guide of a named pipeline, generated as a tool's page is. */
function guide(def: ToolSpec, steps: PipelineStep[], example: Record<string, unknown> | undefined): string {
  const props = def.input.properties as Record<string, JsonSchema>;
  const required = new Set((def.input.required as string[] | undefined) ?? []);
  const inputLines = Object.entries(props).map(
    ([name, s]) =>
      `- \`${name}\` (${typeWord(s)}${required.has(name) ? ', required' : ''}): ${def.semanticFields[name]}`,
  );
  const stepLines = steps.map(
    (s, i) => `${i + 1}. \`${s.toolId}\`${s.mode ? ` (mode \`${s.mode}\`)` : ''}: ${wiring(s)}`,
  );
  const body = example ?? Object.fromEntries(Object.keys(props).map((n) => [n, `<${n}>`]));
  const lastTool = steps[steps.length - 1]!.toolId;
  return [
    `# ${def.name}`,
    '',
    def.description,
    '',
    `A pipeline of ${steps.length} tools: one call runs each step in order through the hub, under`,
    `that tool's own limits and quotas, and spends ${steps.length} runs (the answer's \`rateLimit.runs\`).`,
    '',
    '## Input',
    '',
    ...inputLines,
    '',
    '## Steps',
    '',
    ...stepLines,
    '',
    '## Call it',
    '',
    `- HTTP: \`POST ${pipelinePath(def.id)}\` with \`${JSON.stringify(body).slice(0, 300)}\``,
    `- Generic runtime: \`POST /api/tools/run/\` with \`{"toolId": "${def.id}", "input": {"a": …}}\` (a, b, c: ${
      ['a', 'b', 'c']
        .map((s) => def.fields[s as 'a'])
        .filter(Boolean)
        .join(', ') || 'unused'
    })`,
    `- MCP: \`tools/call\` with \`name: "${def.id}"\` and the input as its arguments`,
    '',
    '## Answer',
    '',
    `\`result\` is the last step's result (\`${lastTool}\`); \`runtime.pipeline.steps\` lists each step's`,
    'run. A failing step ends the pipeline: its error, with `runtime.pipeline.failedStep` and the',
    'results of the steps before it.',
    '',
  ].join('\n');
}

function typeWord(schema: JsonSchema): string {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (Array.isArray(schema.anyOf))
    return schema.anyOf.map((b) => (isObject(b) ? typeWord(b) : 'any')).join(' or ');
  return 'any';
}
