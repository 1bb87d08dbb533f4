import type { FastifyReply, FastifyRequest } from 'fastify';
import { HubError } from '../errors.js';
import { callerOf } from '../http/caller.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../http/json-depth.js';
import { JUNK_ERROR_CODES } from '../http/junk.js';
import type { DirectAnswer } from '../mcp/direct.js';
import type { McpHandler, SdkAnswer } from '../mcp/handler.js';
import { traceMcp } from '../mcp/mcp-span.js';
import { type McpMessageLimit, messageFields } from '../mcp/message-limit.js';
import type { McpCaller, McpParts } from '../mcp/server.js';
import { arrayProblem, junkInAnswer, type MessageArrayBounds, readBody, rpcHubError } from '../mcp/wire.js';
import { tracingOn } from '../telemetry/spans.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The calls of an MCP request, for the access log (one per tools/call). */
    mcpCalls: { toolId: string; errorCode: string | null; requestId: string }[] | null;
  }
}

export interface McpContext {
  parts: McpParts;
  limit: McpMessageLimit;
  bounds: MessageArrayBounds;
  allowedHosts: string[] | null;
  load: () => Promise<McpHandler>;
}

const JSON_TYPE = 'application/json';

/**
 * One HTTP request of /mcp, in the order of docs/api.md "MCP for agents": the method, the
 * Host/Origin check, the body (JSON, its depth, a message array's bounds), the message limit, then
 * the hub's own answer for a hot message or the SDK's. The route counts its junk itself,
 * message by message (`junkCounted`), so that malformed and unknown messages cost their
 * sender as a 400 costs on the other routes, whatever status carries them.
 */
export async function serveMcp(ctx: McpContext, request: FastifyRequest, reply: FastifyReply) {
  request.junkCounted = true;
  const junk = (n: number) => {
    for (let i = 0; i < n; i++) request.server.junk.count(request.ip);
  };
  if (request.method !== 'POST') {
    // A stateless server has no stream to open (GET) and no session to end (DELETE): the
    // transport's own 405, which clients expect and which is not junk. Other methods are.
    if (request.method !== 'GET' && request.method !== 'DELETE') junk(1);
    return rpcError(reply.header('allow', 'POST'), 405, -32000, 'Method not allowed.');
  }
  const handler = await ctx.load();
  const host = request.headers.host;
  const origin = request.headers.origin;
  const refused = ctx.allowedHosts && handler.refuse(host, origin, ctx.allowedHosts);
  if (refused) {
    junk(1);
    return rpcError(reply, 403, -32000, refused);
  }
  const text = typeof request.body === 'string' ? request.body : '';
  // The same depth bound as every door, before the body is parsed: arguments nested
  // thousands deep would otherwise overflow the SDK's recursive validation (-32603).
  if (jsonDepthExceeds(text)) {
    junk(1);
    const err = new HubError('INVALID_INPUT', `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
    return reply.code(400).type(JSON_TYPE).send(rpcHubError(err, -32600));
  }
  const body = readBody(text);
  let messages = 1;
  if (body.kind === 'array') {
    messages = body.messages.length;
    const problem = arrayProblem(body.messages, ctx.bounds, ctx.parts);
    if (problem) {
      junk(1);
      const code = messages > ctx.bounds.maxMessages ? 'INPUT_TOO_LARGE' : 'INVALID_INPUT';
      const status = code === 'INPUT_TOO_LARGE' ? 413 : 400;
      return reply
        .code(status)
        .type(JSON_TYPE)
        .send(rpcHubError(new HubError(code, problem), -32600));
    }
  }
  const caller = callerFor(request, body.kind === 'array', junk);
  if (body.kind !== 'junk') {
    const decision = await ctx.limit.consume(caller.client, messages);
    reply.headers(messageFields(decision));
    if (!decision.allowed) {
      const err = new HubError(
        'RATE_LIMITED',
        `the MCP message limit of ${decision.limit} messages a minute is spent; retry after ${decision.retryAfterSec} s`,
      );
      return reply
        .code(429)
        .header('retry-after', decision.retryAfterSec)
        .type(JSON_TYPE)
        .send(rpcHubError(err, -32000, decision.retryAfterSec));
    }
  }
  const answerNow = async (): Promise<{ direct: DirectAnswer } | { sdk: SdkAnswer }> => {
    if (body.kind === 'one') {
      const direct = await handler.direct({ headers: request.headers, body: body.message }, caller);
      if (direct) return { direct };
    }
    return { sdk: await handler.fetch(toWebRequest(request, text), caller) };
  };
  // Traced (docs/operations.md, "Traces"): a span per message, continuing its `_meta.traceparent`.
  const answered = tracingOn() && body.kind !== 'junk' ? await traceMcp(body, answerNow) : await answerNow();
  if ('direct' in answered) {
    const { direct } = answered;
    return reply.code(direct.status).headers(direct.headers).send(direct.body);
  }
  const answer = answered.sdk;
  junk(junkInAnswer(answer.headers.get('content-type'), answer.body));
  reply.code(answer.status);
  answer.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  return reply.send(answer.body);
}

function callerFor(request: FastifyRequest, inArray: boolean, junk: (n: number) => void): McpCaller {
  let calls = 0;
  return {
    ...callerOf(request),
    log: request.log,
    // One id per call: the request's own for a single message, suffixed in a message array.
    nextRequestId: () => (inArray ? `${request.id}:${calls++}` : request.id),
    onRun: (toolId, errorCode, requestId) => {
      request.toolId = toolId;
      request.errorCode = errorCode;
      request.mcpCalls ??= [];
      request.mcpCalls.push({ toolId, errorCode, requestId });
      if (errorCode !== null && JUNK_ERROR_CODES.has(errorCode)) junk(1);
    },
  };
}

function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type(JSON_TYPE)
    .send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The request as the SDK's web-standard handler takes it. The URL is the hub's own: the
 * Host header was checked above, and a malformed one must not fail `new Request`.
 */
function toWebRequest(request: FastifyRequest, body: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request('http://localhost/mcp', { method: 'POST', headers, body });
}
