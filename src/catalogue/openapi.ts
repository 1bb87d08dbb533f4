import { ERROR_CODES, ERROR_TABLE, errorTableMarkdown } from '../errors.js';
import { BATCH_PATH } from '../routes/batch.js';
import type { AnswerDoc, RouteDoc } from '../routes/route-doc.js';
import { ROUTE_DOCS } from '../routes/route-docs.js';
import { RUNTIME_SCHEMAS } from '../run/runtime-input.js';
import type { ToolDefinition, ToolEndpoint } from '../shared/tool-def.js';
import { type CatalogueContext, RUNTIME_PATH } from './descriptor.js';
import { batchPath, batchSchemas, SECURITY_SCHEMES, TOOL_SECURITY } from './openapi-batch.js';
import { RESPONSE_SCHEMAS } from './schemas.js';

/**
 * The hub's OpenAPI 3.1 document, generated from the tool modules and from the same
 * schemas that validate requests (each tool's input schema, the runtime body schemas)
 * and the error table. Nothing in it is written by hand per tool.
 */
export function buildOpenApi(ctx: CatalogueContext, version: string) {
  const maxRuns = ctx.batchMaxRuns ?? 20;
  const schemas: Record<string, unknown> = {
    ...RESPONSE_SCHEMAS,
    ...RUNTIME_SCHEMAS,
    ...batchSchemas(maxRuns),
  };
  const paths: Record<string, unknown> = {
    [RUNTIME_PATH]: runtimePath([...ctx.tools.keys()].sort()),
    ...batchPath(maxRuns),
  };
  const toolPaths = new Set([RUNTIME_PATH, BATCH_PATH, '/mcp']);
  for (const { def } of [...ctx.tools.values()].sort((a, b) => a.def.id.localeCompare(b.def.id))) {
    for (const ep of def.endpoints) {
      const name = schemaName(def, ep);
      schemas[name] = inputSchema(def, ep);
      paths[ep.path] = dedicatedPath(def, ep, name);
      toolPaths.add(ep.path);
    }
  }
  Object.assign(paths, cataloguePaths());
  // Routes that run tools take an API key when keys are on (docs/operations.md, "Securing the hub").
  for (const path of toolPaths) {
    for (const op of Object.values(paths[path] as Record<string, Record<string, unknown>>))
      op.security = TOOL_SECURITY;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tool Hub: unified index of the hub runtime and the dedicated API specs',
      version: '1.0.0',
      description: `Build ${version}. Every error answer is a ToolRunError; its errorCode decides the status:\n\n${errorTableMarkdown()}`,
    },
    servers: [{ url: ctx.baseUrl }],
    tags: [
      { name: 'runtime', description: 'Run any tool by toolId' },
      { name: 'tools', description: 'Dedicated tool endpoints' },
      { name: 'catalogue', description: 'Skills index, bundle, descriptors and this document' },
      { name: 'operations', description: 'Health and metrics' },
      { name: 'mcp', description: 'The same tools for AI agents over the Model Context Protocol' },
    ],
    paths,
    components: { schemas, headers: HEADERS, responses: errorResponses(), securitySchemes: SECURITY_SCHEMES },
    'x-error-codes': ERROR_CODES.map((code) => ({
      code,
      status: [ERROR_TABLE[code].status, ...ERROR_TABLE[code].otherStatuses],
      when: ERROR_TABLE[code].when,
    })),
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const hdr = (name: string) => ({ $ref: `#/components/headers/${name}` });

const HEADERS = {
  RateLimit: {
    description: 'IETF RateLimit (draft -11): `"<toolId>";r=<remaining>;t=<seconds>`',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'IETF RateLimit-Policy: `"<toolId>";q=<limit>;w=<windowSec>`',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: 'Runs per window, burst included', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Runs left in the window, burst included',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying (429, 503)', schema: { type: 'integer' } },
  'x-request-id': {
    description: 'The request id (yours if well-formed, else generated)',
    schema: { type: 'string' },
  },
};

const RATE_HEADERS = {
  RateLimit: hdr('RateLimit'),
  'RateLimit-Policy': hdr('RateLimit-Policy'),
  'X-RateLimit-Limit': hdr('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': hdr('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': hdr('X-RateLimit-Reset'),
  'x-request-id': hdr('x-request-id'),
};

/** One reusable response per status of the error table, listing the codes behind it. */
function errorResponses(): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const code of ERROR_CODES) {
    for (const s of [ERROR_TABLE[code].status, ...ERROR_TABLE[code].otherStatuses]) {
      byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
    }
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      `Error${status}`,
      {
        description: `ToolRunError with errorCode ${codes.join(' or ')}`,
        headers:
          status === 429 || status === 503
            ? { ...RATE_HEADERS, 'Retry-After': hdr('Retry-After') }
            : RATE_HEADERS,
        content: { 'application/json': { schema: ref('ToolRunError') } },
      },
    ]),
  );
}

const ERROR_STATUSES = [
  ...new Set(ERROR_CODES.flatMap((c) => [ERROR_TABLE[c].status, ...ERROR_TABLE[c].otherStatuses])),
].sort();

function runResponses(): Record<string, unknown> {
  const out: Record<string, unknown> = {
    200: {
      description: 'The run succeeded',
      headers: RATE_HEADERS,
      content: { 'application/json': { schema: ref('ToolRunSuccess') } },
    },
  };
  for (const s of ERROR_STATUSES) out[s] = { $ref: `#/components/responses/Error${s}` };
  return out;
}

function runtimePath(toolIds: string[]) {
  const q = (name: string, required: boolean, description: string, schema: object = { type: 'string' }) => ({
    name,
    in: 'query',
    required,
    description,
    schema,
  });
  return {
    get: {
      tags: ['runtime'],
      operationId: 'runToolGet',
      summary: 'Run a tool by toolId (query parameters)',
      parameters: [
        q('toolId', true, 'The tool to run', { enum: toolIds }),
        q('a', false, "The tool's main input (required by every tool's runtime contract)"),
        q('b', false, 'Second input, per tool'),
        q('c', false, 'Third input, per tool'),
        q('mode', false, 'Tool mode; default the first of the tool'),
        q('source', false, 'Who is calling', RUNTIME_SCHEMAS.RuntimeRequestFlat.properties.source),
      ],
      responses: runResponses(),
    },
    post: {
      tags: ['runtime'],
      operationId: 'runToolPost',
      summary: 'Run a tool by toolId (nested or flat JSON body)',
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { oneOf: [ref('RuntimeRequestNested'), ref('RuntimeRequestFlat')] } },
        },
      },
      responses: runResponses(),
    },
  };
}

function schemaName(def: ToolDefinition, ep: ToolEndpoint): string {
  const pascal = (s: string) => s.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase());
  return `${pascal(def.id)}${ep.mode ? pascal(ep.mode) : ''}Input`;
}

/** The tool's input schema, plus its mode field where the endpoint takes one. */
function inputSchema(def: ToolDefinition, ep: ToolEndpoint): Record<string, unknown> {
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

function dedicatedPath(def: ToolDefinition, ep: ToolEndpoint, name: string): Record<string, unknown> {
  const schema = inputSchema(def, ep);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const ops: Record<string, unknown> = {};
  const base = {
    tags: ['tools'],
    summary: ep.summary,
    description: def.description,
    responses: runResponses(),
  };
  const id = schemaName(def, ep).replace(/Input$/, '');
  if (ep.methods.includes('GET')) {
    ops.get = {
      ...base,
      operationId: `${id}Get`,
      parameters: Object.entries(schema.properties as Record<string, { description?: string }>).map(
        ([field, prop]) => ({
          name: field,
          in: 'query',
          required: required.has(field),
          description: `${prop.description ?? field}. Structured values as JSON text.`,
          schema: { type: 'string' },
        }),
      ),
    };
  }
  if (ep.methods.includes('POST')) {
    ops.post = {
      ...base,
      operationId: `${id}Post`,
      requestBody: { required: true, content: { 'application/json': { schema: ref(name) } } },
    };
  }
  return ops;
}

/** The routes that are not a tool's, from their one declaration (src/routes/route-docs.ts). */
function cataloguePaths(): Record<string, unknown> {
  const nameOf = new Map<object, string>(
    Object.entries(RESPONSE_SCHEMAS).map(([name, schema]) => [schema, name]),
  );
  const content = (a: AnswerDoc) => {
    if (a.schema)
      return { 'application/json': { schema: nameOf.has(a.schema) ? ref(nameOf.get(a.schema)!) : a.schema } };
    return a.type
      ? { [a.type]: { schema: a.type === 'application/json' ? { type: 'object' } : { type: 'string' } } }
      : undefined;
  };
  return Object.fromEntries(
    Object.values(ROUTE_DOCS).map((doc: RouteDoc) => [
      doc.url,
      {
        [doc.method.toLowerCase()]: {
          tags: [doc.tag],
          operationId: doc.operationId,
          summary: doc.summary,
          ...(doc.params
            ? {
                parameters: doc.params.map((name) => ({
                  name,
                  in: 'path',
                  required: true,
                  schema: { type: 'string' },
                })),
              }
            : {}),
          responses: Object.fromEntries(
            Object.entries(doc.answers).map(([status, a]) => {
              const body = content(a);
              return [status, { description: a.description, ...(body ? { content: body } : {}) }];
            }),
          ),
        },
      },
    ]),
  );
}
