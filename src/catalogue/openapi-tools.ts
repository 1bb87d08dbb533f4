import { isPipelineSpec } from '../pipelines/pipeline-tool.js';
import type { ToolEndpoint, ToolSpec } from '../shared/tool-def.js';
import { CACHE_CONTROL, IDEMPOTENCY_KEY, IF_NONE_MATCH, ref, runResponses } from './openapi-responses.js';

/**
 * The tools' part of the OpenAPI document, from the tool modules alone: each endpoint's
 * input (the schema that validates it), each tool's result (its `output`, the MCP
 * outputSchema) and success answer, and the generic runtime endpoint, whose 200 is one of
 * the tools' successes, told apart by `runtime.toolId` (docs/api.md, "Answers").
 */
const pascal = (s: string) => s.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase());

export const resultName = (def: ToolSpec) => `${pascal(def.id)}Result`;
export const successName = (def: ToolSpec) => `${pascal(def.id)}RunSuccess`;
const inputName = (def: ToolSpec, ep: ToolEndpoint) =>
  `${pascal(def.id)}${ep.mode ? pascal(ep.mode) : ''}Input`;

/**
 * Each endpoint's request body, under `components.requestBodies`: openapi-typescript (default
 * flags) makes a property with a `default` required in a component schema, but not in a
 * request body, where the hub fills the default in (docs/api.md, "Client generation").
 */
export function toolRequestBodies(defs: ToolSpec[]): Record<string, unknown> {
  const bodies: Record<string, unknown> = {};
  for (const def of defs) {
    for (const ep of def.endpoints) {
      bodies[inputName(def, ep)] = {
        required: true,
        description: `The named fields of ${def.name}`,
        content: { 'application/json': { schema: inputSchema(def, ep) } },
      };
    }
  }
  return bodies;
}

/** Result and success schemas of every tool, and the runtime's union of the successes. */
export function toolSchemas(defs: ToolSpec[]): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const def of defs) {
    schemas[resultName(def)] = { ...structuredClone(def.output), description: `The result of ${def.name}` };
    // The contract's ToolRunSuccess with this tool's result: a generated client reads typed fields.
    schemas[successName(def)] = {
      type: 'object',
      description: `A ToolRunSuccess of ${def.name}`,
      required: ['ok', 'result', 'runtime'],
      properties: {
        ok: { const: true },
        result: ref(resultName(def)),
        runtime: { allOf: [ref('Runtime'), { type: 'object', properties: { toolId: { const: def.id } } }] },
        // A named pipeline's answer carries its rate report: the runs it spent (docs/api.md, "Pipelines").
        ...(isPipelineSpec(def) ? { rateLimit: ref('RateLimit') } : {}),
      },
      ...(isPipelineSpec(def) ? { required: ['ok', 'result', 'runtime', 'rateLimit'] } : {}),
    };
  }
  // anyOf, not oneOf: the successes differ only in runtime.toolId, which OpenAPI's
  // discriminator cannot name (it is not a top-level property); generators read both as a union.
  schemas.ToolRunSuccessByTool = {
    description:
      "A run of any tool: the success of the tool named by runtime.toolId, with that tool's result",
    anyOf: defs.map((def) => ref(successName(def))),
  };
  return schemas;
}

/** The tool's input schema, plus its mode field where the endpoint takes one. */
function inputSchema(def: ToolSpec, ep: ToolEndpoint): Record<string, unknown> {
  const schema = structuredClone(def.input) as { properties: Record<string, unknown> };
  if (!ep.mode && def.modeField) {
    const modes = ep.modes ?? def.modes;
    schema.properties[def.modeField] = {
      enum: modes,
      default: modes[0],
      description: def.semanticFields[def.modeField],
    };
  }
  for (const [name, prop] of Object.entries(schema.properties)) {
    const description = def.semanticFields[name];
    if (description && typeof prop === 'object' && prop)
      (prop as Record<string, unknown>).description = description;
  }
  return schema;
}

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/** A query parameter keeps its field's scalar type (the hub coerces "3" to 3); JSON values go as JSON text. */
function querySchema(prop: Record<string, unknown>): Record<string, unknown> {
  const { description: _description, ...rest } = prop;
  const scalar = (typeof prop.type === 'string' && SCALARS.has(prop.type)) || (!prop.type && prop.enum);
  return scalar ? rest : { type: 'string' };
}

/** One dedicated endpoint: GET (named fields as the query) and POST (as a JSON body). */
export function dedicatedPath(def: ToolSpec, ep: ToolEndpoint): Record<string, unknown> {
  const schema = inputSchema(def, ep);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const ops: Record<string, unknown> = {};
  const base = { tags: ['tools'], summary: ep.summary, description: def.description };
  const id = inputName(def, ep).replace(/Input$/, '');
  if (ep.methods.includes('GET')) {
    ops.get = {
      ...base,
      operationId: `${id}Get`,
      parameters: Object.entries(schema.properties as Record<string, Record<string, unknown>>)
        .map(([field, prop]) => ({
          name: field,
          in: 'query',
          required: required.has(field),
          description: `${(prop.description as string | undefined) ?? field}. Structured values as JSON text.`,
          schema: querySchema(prop),
        }))
        .concat([IF_NONE_MATCH as never, CACHE_CONTROL as never]),
      responses: runResponses(successName(def)),
    };
  }
  if (ep.methods.includes('POST')) {
    ops.post = {
      ...base,
      operationId: `${id}Post`,
      parameters: [IF_NONE_MATCH, CACHE_CONTROL, IDEMPOTENCY_KEY],
      requestBody: { $ref: `#/components/requestBodies/${inputName(def, ep)}` },
      responses: runResponses(successName(def)),
    };
  }
  return ops;
}
