import { RESPONSE_SCHEMAS } from '../catalogue/schemas.js';
import type { RouteDoc } from './route-doc.js';

const notModified = { 304: { description: 'Not modified (If-None-Match matched the ETag)' } };
const markdown = { description: 'Markdown', type: 'text/markdown' };

/** Every route of the hub that is not a tool's, with what it answers (see route-doc.ts). */
export const ROUTE_DOCS = {
  skillsIndex: {
    method: 'GET',
    url: '/api/skills-index.json',
    operationId: 'skillsIndex',
    summary: 'The skills index: every tool an agent can call',
    tag: 'catalogue',
    answers: { 200: { description: 'Skills index', type: 'application/json' }, ...notModified },
  },
  skillsBundle: {
    method: 'GET',
    url: '/api/skills-bundle.json',
    operationId: 'skillsBundle',
    summary: 'The skills bundle: index plus SKILL.md and examples',
    tag: 'catalogue',
    answers: { 200: { description: 'Skills bundle', type: 'application/json' }, ...notModified },
  },
  descriptor: {
    method: 'GET',
    url: '/api/tools/{toolId}.json',
    operationId: 'toolDescriptor',
    summary: 'The descriptor of one tool (metadata, agent contract, policy)',
    tag: 'catalogue',
    params: ['toolId'],
    answers: { 200: { description: 'Descriptor', type: 'application/json' }, ...notModified },
  },
  openapiJson: {
    method: 'GET',
    url: '/api/openapi.json',
    operationId: 'openapiJson',
    summary: 'This document as JSON',
    tag: 'catalogue',
    answers: { 200: { description: 'OpenAPI 3.1', type: 'application/json' }, ...notModified },
  },
  openapiYaml: {
    method: 'GET',
    url: '/api/openapi.yaml',
    operationId: 'openapiYaml',
    summary: 'This document as YAML',
    tag: 'catalogue',
    answers: { 200: { description: 'OpenAPI 3.1', type: 'application/yaml' }, ...notModified },
  },
  skillMd: {
    method: 'GET',
    url: '/skills/{toolId}/SKILL.md',
    operationId: 'skillMd',
    summary: "A tool's SKILL.md",
    tag: 'catalogue',
    params: ['toolId'],
    answers: { 200: markdown },
  },
  commonSkill: {
    method: 'GET',
    url: '/skills/common/{name}',
    operationId: 'commonSkill',
    summary: 'error-handling.md, invocation-patterns.md or safety-defaults.md',
    tag: 'catalogue',
    params: ['name'],
    answers: { 200: markdown },
  },
  healthz: {
    method: 'GET',
    url: '/healthz',
    operationId: 'healthz',
    summary: 'Alive',
    tag: 'operations',
    answers: { 200: { description: 'Alive', schema: RESPONSE_SCHEMAS.Health } },
  },
  readyz: {
    method: 'GET',
    url: '/readyz',
    operationId: 'readyz',
    summary: 'Ready: workers up and not shedding load; limiter store redis, memory or degraded',
    tag: 'operations',
    answers: {
      200: {
        description: 'Ready (or degraded: serving on the insurance limiter)',
        schema: RESPONSE_SCHEMAS.Readiness,
      },
      503: { description: 'Not ready, or shedding load', schema: RESPONSE_SCHEMAS.Readiness },
    },
  },
  metrics: {
    method: 'GET',
    url: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    tag: 'operations',
    answers: { 200: { description: 'Prometheus text format', type: 'text/plain' } },
  },
  mcp: {
    method: 'POST',
    url: '/mcp',
    operationId: 'mcp',
    summary:
      'Model Context Protocol (Streamable HTTP, stateless): JSON-RPC tools/list, tools/call, resources/list, resources/read for AI agents; revisions 2026-07-28, 2025-11-25 and 2025-06-18',
    tag: 'mcp',
    answers: {
      200: {
        description: 'A JSON-RPC answer (JSON, or one SSE message for 2025-era requests)',
        type: 'application/json',
      },
      403: {
        description: 'Host or Origin not allowed (DNS-rebinding protection, MCP_ALLOWED_HOSTS)',
        type: 'application/json',
      },
    },
  },
} as const satisfies Record<string, RouteDoc>;
