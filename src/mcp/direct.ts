import {
  classifyInboundRequest,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import type { RunResult } from '../run/run-types.js';
import { successMeta, toCallResult } from './call-result.js';
import { USAGE_RESOURCE } from './resources.js';
import { type McpCaller, type McpParts, readResult, readUsage, runCall, serverIdentity } from './server.js';

/** What the /mcp route knows of a POST: its headers and its parsed body. */
export interface DirectRequest {
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** An answer the hub gives itself: status, content type and the bytes. */
export interface DirectAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Era = 'legacy' | 'modern';
interface Route {
  era: Era;
  id: string | number;
  method: string;
  params: Record<string, unknown>;
}

const HOT = new Set([
  'tools/call',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'ping',
]);
const MODERN = '2026-07-28';
const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};
const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * The hub's own answers to the messages agents send most (docs/api.md, "MCP for agents"):
 * a single request of `tools/call`, the listings, `resources/read` or `ping` that the SDK
 * would serve as a plain result. Serving them through the SDK costs a server, a transport
 * and web Request/Response objects per message, about four REST runs' worth of CPU
 * (docs/benchmarks.md, "MCP against REST"); here a call costs its run and its JSON. The
 * answer is what the SDK answers, byte for byte apart from key order (src/mcp/direct.test.ts
 * compares the two): SSE for the 2025 revisions, JSON with the server's identity for
 * 2026-07-28. Anything else, and anything the SDK would refuse or answer with an error
 * (an unknown tool or resource, a malformed message, mismatched headers), returns null and
 * goes to the SDK, which owns the protocol's rules. The SDK's own classifier decides the era.
 */
export async function answerDirect(
  parts: McpParts,
  caller: McpCaller,
  request: DirectRequest,
): Promise<DirectAnswer | null> {
  const route = routeOf(request);
  if (!route) return null;
  const result = await resultOf(parts, caller, route);
  if (result === null) return null;
  const id = JSON.stringify(route.id);
  if (route.era === 'legacy') {
    return {
      status: 200,
      headers: SSE_HEADERS,
      body: `event: message\ndata: {"result":${result},"jsonrpc":"2.0","id":${id}}\n\n`,
    };
  }
  // The modern era names the server in every result's _meta and says the result is final.
  const meta = `"${SERVER_INFO_META_KEY}":${serverInfo(parts)}`;
  const withMeta = result.startsWith('{"_meta":{')
    ? `{"_meta":{${meta},${result.slice(10)}`
    : `{"_meta":{${meta}},${result.slice(1)}`;
  // Listings and reads carry the SDK's default cache hint (private, no reuse) in this era.
  const hint = route.method === 'tools/call' ? '' : ',"cacheScope":"private","ttlMs":0';
  return {
    status: 200,
    headers: JSON_HEADERS,
    body: `{"result":${withMeta.slice(0, -1)}${hint},"resultType":"complete"},"jsonrpc":"2.0","id":${id}}`,
  };
}

/** The result's JSON, or null when the SDK must answer (an error of the protocol). */
async function resultOf(parts: McpParts, caller: McpCaller, route: Route): Promise<string | null> {
  const { method, params } = route;
  if (method === 'ping') return route.era === 'legacy' ? '{}' : null;
  if (method === 'tools/call') {
    const { name, arguments: args } = params;
    if (typeof name !== 'string' || !parts.facade.knows(name)) return null;
    if (args !== undefined && !isPlainObject(args)) return null;
    return callJson(await runCall(parts, caller, name, (args ?? {}) as Record<string, unknown>));
  }
  if (method === 'resources/read') {
    if (params.uri === USAGE_RESOURCE.uri) return JSON.stringify(await readUsage(parts, caller));
    const resource = typeof params.uri === 'string' ? parts.resources.get(params.uri) : undefined;
    return resource ? JSON.stringify(readResult(resource)) : null;
  }
  // Listings: a cursor asks for a page the SDK would refuse (there is one page).
  if (params.cursor !== undefined) return null;
  return parts.listings.json[method as keyof McpParts['listings']['json']] ?? null;
}

/** A call's result as JSON; a success is spliced from the run's own JSON, not parsed again. */
function callJson(result: RunResult): string {
  if (!result.ok || !result.resultJson.startsWith('{')) {
    // _meta first: the modern era adds the server's identity to it (answerDirect).
    const { _meta, ...rest } = toCallResult(result);
    return JSON.stringify({ _meta: _meta ?? {}, ...rest });
  }
  const text = JSON.stringify(result.resultJson);
  const meta = JSON.stringify(successMeta(result));
  return `{"_meta":${meta},"content":[{"type":"text","text":${text}}],"structuredContent":${result.resultJson}}`;
}

function routeOf(request: DirectRequest): Route | null {
  const { headers, body } = request;
  if (!isPlainRequest(body) || !HOT.has(body.method)) return null;
  if (!accepts(headers.accept) || !isJson(headers['content-type'])) return null;
  const params = body.params ?? {};
  const version = header(headers, 'mcp-protocol-version');
  if (version === undefined) return null;
  if (version < MODERN) {
    // A 2025 request with no _meta carries no modern envelope claim: the SDK's classifier
    // would route it to the legacy era ("no-claim"), so it is not asked (it validates the
    // message with zod, the costliest step of a call here).
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version) || hasMeta(params)) return null;
    return { era: 'legacy', id: body.id, method: body.method, params };
  }
  const route = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: version, body });
  if (route.kind !== 'modern' || route.messageKind !== 'request') return null;
  if (route.classification.revision !== MODERN || version !== MODERN) return null;
  // The standard headers must name exactly what the body does (else the SDK rejects).
  if (header(headers, 'mcp-method') !== body.method) return null;
  const name =
    body.method === 'tools/call' ? params.name : body.method === 'resources/read' ? params.uri : undefined;
  if (header(headers, 'mcp-name') !== name) return null;
  return { era: 'modern', id: body.id, method: body.method, params };
}

interface PlainRequest {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
}

/**
 * A JSON-RPC request in its plainest form: the four members and no others, an id that is a
 * string or an integer, params an object when present. Anything less plain goes to the SDK,
 * whose schemas decide.
 */
function isPlainRequest(body: unknown): body is PlainRequest {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return false;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (params !== undefined && !isPlainObject(params)) return false;
  for (const key in body) if (!REQUEST_KEYS.has(key)) return false;
  return true;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

function header(headers: DirectRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

function accepts(value: unknown): boolean {
  return (
    typeof value === 'string' && value.includes('application/json') && value.includes('text/event-stream')
  );
}

function isJson(value: unknown): boolean {
  return typeof value === 'string' && /^application\/json\s*(;|$)/i.test(value);
}

/** Params with _meta (progress tokens, tasks, traces) ask for what only the SDK serves. */
function hasMeta(params: Record<string, unknown>): boolean {
  return params._meta !== undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const infoCache = new WeakMap<McpParts, string>();
function serverInfo(parts: McpParts): string {
  let info = infoCache.get(parts);
  if (info === undefined) {
    info = JSON.stringify(serverIdentity(parts.version));
    infoCache.set(parts, info);
  }
  return info;
}
