import { ERROR_CODES, ERROR_TABLE, errorTableMarkdown } from '../errors.js';
import { hubVersion } from '../registry.js';
import { RUNTIME_SCHEMAS } from '../run/runtime-input.js';
import { type CatalogueContext, RUNTIME_PATH } from './descriptor.js';
import { forGenerators } from './for-generators.js';
import { JOB_PATH, JOBS_PATH, jobRouteDocs, jobSchemas } from './job-route-docs.js';
import { MCP_SCHEMAS } from './mcp-schemas.js';
import { batchRequestSchemas, SECURITY_SCHEMES, TOOL_SECURITY } from './openapi-batch.js';
import { errorResponses, HEADERS } from './openapi-responses.js';
import { routePaths } from './openapi-routes.js';
import { dedicatedPath, toolRequestBodies, toolSchemas } from './openapi-tools.js';
import { PIPELINE_RUN_ROUTE_DOC, PIPELINES_RUN_PATH } from './pipeline-route-docs.js';
import { ROUTE_DOCS } from './route-docs.js';
import { RESPONSE_SCHEMAS } from './schemas.js';
import { BATCH_PATH, batchRequestRouteDoc, runtimeRouteDocs } from './tool-route-docs.js';

/**
 * The hub's OpenAPI 3.1 document, generated from the tool modules, from the same schemas
 * that validate requests (each tool's input schema, the runtime body schemas), from each
 * tool's result schema, from the declarations that register the routes (the tools'
 * `endpoints`, src/catalogue/tool-route-docs.ts, src/catalogue/route-docs.ts) and from the error table. Nothing in it is written by hand
 * per tool; test/openapi-routes.test.ts checks every served route has its operation.
 */
export function buildOpenApi(ctx: CatalogueContext, version: string) {
  const maxRuns = ctx.batchMaxRuns ?? 20;
  const defs = [...ctx.tools.values()].map((t) => t.def).sort((a, b) => a.id.localeCompare(b.id));
  // Every success is a tool's own (XRunSuccess, ToolRunSuccessByTool): the untyped
  // ToolRunSuccess of the contract has no answer left to describe.
  const { ToolRunSuccess: _untyped, ...answers } = RESPONSE_SCHEMAS;
  const named = { ...answers, ...MCP_SCHEMAS };
  const schemas: Record<string, unknown> = {
    ...named,
    ...RUNTIME_SCHEMAS,
    ...batchRequestSchemas(maxRuns),
    ...jobSchemas(ctx.jobsBatchMaxRuns ?? 1000),
    ...toolSchemas(defs),
  };
  const paths: Record<string, Record<string, Record<string, unknown>>> = {};
  const toolPaths = new Set([RUNTIME_PATH, BATCH_PATH, JOBS_PATH, JOB_PATH, PIPELINES_RUN_PATH, '/mcp']);
  for (const def of defs) {
    for (const ep of def.endpoints) {
      paths[ep.path] = dedicatedPath(def, ep) as Record<string, Record<string, unknown>>;
      toolPaths.add(ep.path);
    }
  }
  const nameOf = new Map<object, string>(Object.entries(named).map(([name, schema]) => [schema, name]));
  const runtime = runtimeRouteDocs(defs.map((d) => d.id));
  const declared = [
    runtime.get,
    runtime.post,
    batchRequestRouteDoc(maxRuns),
    PIPELINE_RUN_ROUTE_DOC,
    ...Object.values(jobRouteDocs(ctx.jobsBatchMaxRuns ?? 1000)),
    ...Object.values(ROUTE_DOCS),
  ];
  Object.assign(paths, routePaths(declared, nameOf));
  // Routes that run tools take an API key when keys are on (docs/operations.md, "Securing the
  // hub"); the others never ask for one.
  for (const [path, ops] of Object.entries(paths)) {
    for (const op of Object.values(ops)) op.security = toolPaths.has(path) ? TOOL_SECURITY : [];
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tool Hub: unified index of the generic runtime and the dedicated API specs',
      version: hubVersion(),
      description: `Build ${version}. Every error answer is a ToolRunError; its errorCode decides the status:\n\n${errorTableMarkdown()}`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: ctx.baseUrl }],
    tags: [
      { name: 'runtime', description: 'Run any tool by toolId' },
      { name: 'tools', description: 'Dedicated tool endpoints' },
      { name: 'jobs', description: 'Runs that outlive their request: jobs, their answers and webhooks' },
      { name: 'catalogue', description: 'Skills index, bundle, descriptors and this document' },
      { name: 'operations', description: 'Health and metrics' },
      { name: 'mcp', description: 'The same tools for AI agents over the Model Context Protocol' },
    ],
    paths: forGenerators(paths),
    components: {
      schemas: forGenerators(schemas),
      requestBodies: forGenerators(toolRequestBodies(defs)),
      headers: HEADERS,
      responses: errorResponses(),
      securitySchemes: SECURITY_SCHEMES,
    },
    'x-error-codes': ERROR_CODES.map((code) => ({
      code,
      status: [ERROR_TABLE[code].status, ...ERROR_TABLE[code].otherStatuses],
      when: ERROR_TABLE[code].when,
    })),
  };
}
