import { MCP_ROUTE_DOCS } from './mcp-route-docs.js';
import type { AnswerDoc, RouteDoc } from './route-doc.js';
import { RESPONSE_SCHEMAS } from './schemas.js';

const notModified = { 304: { description: 'Not modified (If-None-Match matched the ETag)' } };
const markdown = { description: 'Markdown', type: 'text/markdown' };
/** A body built once at boot and sent as bytes (src/catalogue/catalogue.ts). */
const built = (description: string, schema: object): AnswerDoc => ({ description, schema, prebuilt: true });
const hubError = (description: string): AnswerDoc => built(description, RESPONSE_SCHEMAS.ToolRunError);
/**
 * What any catalogue route may answer before its handler (docs/api.md, "Before the limits:
 * junk, pressure, shutdown"); health and metrics are exempt from the first two.
 */
const refused = {
  429: hubError('Too many refused requests from this client (RATE_LIMITED, Retry-After)'),
  503: hubError('Shedding load or shutting down (CONCURRENCY_LIMIT, Retry-After)'),
};
/**
 * A request that reaches the hub while it shuts down (a kept-alive connection after SIGTERM)
 * is answered this on every route, health and metrics included (docs/operations.md, "Shutdown").
 */
const shuttingDown = hubError('Shutting down (CONCURRENCY_LIMIT, Retry-After, Connection: close)');
const toolIdParam = { name: 'toolId', description: 'A toolId of the skills index' };

/** Every route of the hub that is not a tool's, with what it answers (see route-doc.ts). */
export const ROUTE_DOCS = {
  skillsIndex: {
    method: 'GET',
    url: '/api/skills-index.json',
    operationId: 'skillsIndex',
    summary: 'The skills index: every tool an agent can call',
    description: 'Built at boot; cache it by its ETag.',
    tag: 'catalogue',
    answers: { 200: built('Skills index', RESPONSE_SCHEMAS.SkillsIndex), ...notModified, ...refused },
  },
  skillsBundle: {
    method: 'GET',
    url: '/api/skills-bundle.json',
    operationId: 'skillsBundle',
    summary: 'The skills bundle: index plus SKILL.md and examples',
    description: 'One request gives an agent everything it needs to call every tool.',
    tag: 'catalogue',
    answers: { 200: built('Skills bundle', RESPONSE_SCHEMAS.SkillsBundle), ...notModified, ...refused },
  },
  descriptor: {
    method: 'GET',
    url: '/api/tools/{toolId}.json',
    operationId: 'toolDescriptor',
    summary: 'The descriptor of one tool (metadata, agent contract, policy)',
    description: 'The policy shown is the effective one, operator overrides included.',
    tag: 'catalogue',
    params: [toolIdParam],
    answers: {
      200: built('Descriptor', RESPONSE_SCHEMAS.ToolDescriptor),
      ...notModified,
      404: hubError('No such tool (INVALID_INPUT)'),
      ...refused,
    },
  },
  openapiJson: {
    method: 'GET',
    url: '/api/openapi.json',
    operationId: 'openapiJson',
    summary: 'This document as JSON',
    description: 'Generated at boot from the tool modules and the route declarations.',
    tag: 'catalogue',
    answers: {
      200: { description: 'OpenAPI 3.1', type: 'application/json' },
      ...notModified,
      ...refused,
    },
  },
  openapiYaml: {
    method: 'GET',
    url: '/api/openapi.yaml',
    operationId: 'openapiYaml',
    summary: 'This document as YAML',
    description: 'The same document as /api/openapi.json.',
    tag: 'catalogue',
    answers: {
      200: { description: 'OpenAPI 3.1', type: 'application/yaml' },
      ...notModified,
      ...refused,
    },
  },
  skillMd: {
    method: 'GET',
    url: '/skills/{toolId}/SKILL.md',
    operationId: 'skillMd',
    summary: "A tool's SKILL.md",
    description: 'What an agent reads before its first call of the tool.',
    tag: 'catalogue',
    params: [toolIdParam],
    answers: { 200: markdown, ...notModified, 404: hubError('No such tool (INVALID_INPUT)'), ...refused },
  },
  commonSkill: {
    method: 'GET',
    url: '/skills/common/{name}',
    operationId: 'commonSkill',
    summary: 'error-handling.md, invocation-patterns.md or safety-defaults.md',
    description: 'The guides every tool shares (the skills index lists them as commonFiles).',
    tag: 'catalogue',
    params: [
      { name: 'name', description: 'error-handling.md, invocation-patterns.md or safety-defaults.md' },
    ],
    answers: { 200: markdown, ...notModified, 404: hubError('No such file (INVALID_INPUT)'), ...refused },
  },
  usage: {
    method: 'GET',
    url: '/api/usage',
    operationId: 'usage',
    summary: "The caller's usage of every tool's limits: rate, budget, concurrency",
    description:
      'For the caller (its API key, or its address with keys off), under its tier: for each tool the window, used, remaining and reset of each limit, and totals (docs/api.md, "Usage"). Runs nothing; limited to 60 reads a minute per caller. RateLimit-Policy names the read\'s own limit (`@usage`), every tool\'s rate limit and every quota that applies to the caller.',
    tag: 'runtime',
    answers: {
      200: {
        description: 'Usage',
        schema: RESPONSE_SCHEMAS.Usage,
        headers: {
          RateLimit: {
            description: 'The read\'s own limit: `"@usage";r=<reads left>;t=<seconds>`',
            schema: { type: 'string' },
          },
          'RateLimit-Policy': {
            description:
              "The read's own limit (`\"@usage\";q=60;w=60`), then for each tool its rate limit and its quotas, and the key's quotas, named as on a run's answer",
            schema: { type: 'string' },
          },
        },
      },
      401: hubError('API keys are on and the key is missing or unknown (INVALID_INPUT, WWW-Authenticate)'),
      429: hubError('More than 60 reads a minute, or too many refused requests (RATE_LIMITED, Retry-After)'),
      503: hubError('Shedding load or shutting down (CONCURRENCY_LIMIT, Retry-After)'),
    },
  },
  healthz: {
    method: 'GET',
    url: '/healthz',
    operationId: 'healthz',
    summary: 'Alive',
    description: 'The process answers; exempt from the junk limit and load shedding.',
    tag: 'operations',
    answers: { 200: { description: 'Alive', schema: RESPONSE_SCHEMAS.Health }, 503: shuttingDown },
  },
  readyz: {
    method: 'GET',
    url: '/readyz',
    operationId: 'readyz',
    summary: 'Ready: workers up and not shedding load; limiter store redis, memory or degraded',
    description:
      'For load balancers and orchestrators; exempt from the junk limit and load shedding. With HUB_PROCESSES > 1 it answers for the box: ready once every process has been (its boot), then while at least one is; `processes` says how many are.',
    tag: 'operations',
    answers: {
      200: {
        description: 'Ready (or degraded: serving on the insurance limiter)',
        schema: RESPONSE_SCHEMAS.Readiness,
      },
      503: {
        description: 'Not ready or shedding load (Readiness); shutting down (a ToolRunError)',
        schema: { anyOf: [RESPONSE_SCHEMAS.Readiness, RESPONSE_SCHEMAS.ToolRunError] },
        // A union fastify's serialiser cannot resolve ($refs inside): plain JSON.stringify.
        prebuilt: true,
      },
    },
  },
  metrics: {
    method: 'GET',
    url: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description:
      'For a Prometheus scrape (docs/operations.md); exempt from the junk limit and load shedding. OpenMetrics, with the exemplars of traced runs, when `Accept` names `application/openmetrics-text`.',
    tag: 'operations',
    answers: {
      200: {
        description: 'Prometheus text format, or OpenMetrics when asked for',
        type: 'text/plain',
        otherTypes: { 'application/openmetrics-text': { type: 'string' } },
      },
      503: shuttingDown,
    },
  },
  ...MCP_ROUTE_DOCS,
} as const satisfies Record<string, RouteDoc>;
