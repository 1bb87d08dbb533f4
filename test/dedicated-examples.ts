import { readExamples, type ToolExamples } from '../src/docs/examples.js';
import { endpointFor } from '../src/pages/form-model.js';
import type { RegisteredTool } from '../src/registry.js';
import type { ToolSpec } from '../src/shared/tool-def.js';
import { fieldsFor } from '../src/shared/tool-def.js';

/** A generic runtime body (`examples/basic.json`) as the call of the dedicated endpoint that runs it. */
export interface DedicatedCall {
  toolId: string;
  path: string;
  /** POST where the endpoint takes it, else GET. */
  method: 'GET' | 'POST';
  /** The named fields, with the example's own JSON types (a number stays a number). */
  body: Record<string, unknown>;
}

export function dedicatedCall(def: ToolSpec, request: Record<string, unknown>): DedicatedCall {
  const input = (request.input ?? request) as Record<string, unknown>;
  const wanted = String(input.mode ?? '').toLowerCase();
  const mode = def.modes.find((m) => m.toLowerCase() === wanted) ?? def.modes[0]!;
  const endpoint = endpointFor(def, mode);
  const names = fieldsFor(def, mode);
  const body: Record<string, unknown> = {};
  for (const slot of ['a', 'b', 'c'] as const) {
    const name = names[slot];
    if (name && input[slot] !== undefined && input[slot] !== null) body[name] = input[slot];
  }
  if (!endpoint.mode && def.modeField) body[def.modeField] = mode;
  return {
    toolId: def.id,
    path: endpoint.path,
    method: endpoint.methods.includes('POST') ? 'POST' : 'GET',
    body,
  };
}

/** Every tool with its examples and its basic example's dedicated call, sorted by toolId. */
export function toolExamples(
  tools: Map<string, RegisteredTool>,
): { def: ToolSpec; examples: ToolExamples; call: DedicatedCall }[] {
  return [...tools.values()]
    .sort((a, b) => a.def.id.localeCompare(b.def.id))
    .map(({ def, docsDir }) => {
      const examples = readExamples(docsDir);
      return { def, examples, call: dedicatedCall(def, examples.basic) };
    });
}

/** The named fields as a query string (GET): text as is, other values as JSON text. */
export function queryOf(body: Record<string, unknown>): string {
  return new URLSearchParams(
    Object.entries(body).map(([k, v]): [string, string] => [
      k,
      typeof v === 'string' ? v : JSON.stringify(v),
    ]),
  ).toString();
}
