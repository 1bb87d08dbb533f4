import { MCP_SCHEMAS } from './mcp-schemas.js';
import type { AnswerDoc, RouteDoc } from './route-doc.js';
import { RESPONSE_SCHEMAS } from './schemas.js';

/**
 * `/mcp` as its answers really are (docs/api.md, "MCP for agents"): where the MCP transport
 * decides, the body is a JSON-RPC error object; answers before the transport (no key, the
 * body cap, junk, shedding) are ToolRunErrors like on every route. The route itself is
 * registered by src/plugins/mcp.ts; test/openapi-routes.test.ts checks both agree.
 */
const rpc = (description: string): AnswerDoc => ({
  description,
  schema: { $ref: '#/components/schemas/JsonRpcError' },
  prebuilt: true,
});
const either = (description: string): AnswerDoc => ({
  description,
  schema: {
    oneOf: [{ $ref: '#/components/schemas/JsonRpcError' }, { $ref: '#/components/schemas/ToolRunError' }],
  },
  prebuilt: true,
});
const hubError = (description: string): AnswerDoc => ({
  description,
  schema: RESPONSE_SCHEMAS.ToolRunError,
  prebuilt: true,
});
const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
};
/** The MCP message limit's own fields on an /mcp answer (docs/api.md, "Limit names and the RateLimit headers"). */
const messageFields = {
  RateLimit: {
    description:
      "While MCP_MESSAGE_LIMIT is on: `\"@mcp\";r=<messages left>;t=<seconds to the window's end>`. A call's own limits are in its result's `_meta.rateLimitFields`",
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'While MCP_MESSAGE_LIMIT is on: `"@mcp";q=<MCP_MESSAGE_LIMIT>;w=60`',
    schema: { type: 'string' },
  },
};
const noKey = hubError('API keys are on and the key is missing or unknown (WWW-Authenticate: Bearer)');

export const MCP_ROUTE_DOCS = {
  mcp: {
    method: 'POST',
    url: '/mcp',
    operationId: 'mcp',
    summary:
      'Model Context Protocol (Streamable HTTP, stateless): JSON-RPC tools/list, tools/call, resources/list, resources/read for AI agents; revisions 2026-07-28, 2025-11-25 and 2025-06-18',
    description:
      'A protocol endpoint: the methods and their results are those of the MCP specification; tools/list gives every tool with its inputSchema and outputSchema. Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`. Every message costs one point of MCP_MESSAGE_LIMIT. GET (a server stream) and DELETE (a session end) answer 405 with `Allow: POST` and a JSON-RPC error, as the transport asks of a stateless server; they are not operations.',
    tag: 'mcp',
    body: { description: 'JSON-RPC 2.0 message(s)', schema: MCP_SCHEMAS.JsonRpcRequestBody },
    answers: {
      200: {
        description:
          'The JSON-RPC answer(s): JSON for the current revision, one SSE message (`event: message`, `data:` the answer) for 2025-era requests',
        schema: MCP_SCHEMAS.JsonRpcAnswer,
        prebuilt: true,
        headers: messageFields,
        otherTypes: {
          'text/event-stream': {
            type: 'string',
            description: 'One SSE event whose data is the JSON-RPC answer',
          },
        },
      },
      202: { description: 'Accepted: the body held only notifications or responses, which have no answer' },
      400: either(
        "A malformed or unsupported JSON-RPC message, a body nested too deep or a refused message array (JSON-RPC error; the hub's ToolRunError in data)",
      ),
      401: noKey,
      403: rpc('Host or Origin not allowed (DNS-rebinding protection, MCP_ALLOWED_HOSTS)'),
      406: rpc('Accept must list application/json and text/event-stream'),
      413: either(
        'A message array of more than MCP_BATCH_MAX_MESSAGES messages (JSON-RPC error, INPUT_TOO_LARGE in data), or a body over the hard cap (ToolRunError)',
      ),
      415: rpc('Content-Type must be application/json'),
      429: {
        ...either(
          'MCP_MESSAGE_LIMIT spent (JSON-RPC error, RATE_LIMITED in data, `RateLimit: "@mcp";r=0`), or too many refused requests from this client (ToolRunError)',
        ),
        headers: { ...retryAfter, ...messageFields },
      },
      503: { ...hubError('Shedding load or shutting down (CONCURRENCY_LIMIT)'), headers: retryAfter },
    },
  },
} as const satisfies Record<string, RouteDoc>;
