import {
  type JSONRPCRequest,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Tier } from '../auth/tiers.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { RunFacade } from '../run/facade.js';
import { fromArguments } from '../run/input.js';
import type { RunLog, RunResult } from '../run/run-types.js';
import { quote } from '../shared/quote.js';
import { toCallResult } from './call-result.js';
import type { McpListings } from './listings.js';
import { paramsError } from './params-error.js';
import { type McpResource, USAGE_RESOURCE } from './resources.js';
import { TASK_CAPABILITIES } from './task-capabilities.js';
import { type McpTool, modeArgument } from './tools.js';

/** Who is calling: counted by the same limits as an HTTP client with this identity. */
export interface McpCaller {
  client: string;
  tier?: Tier;
  /** The request id of the next call: the HTTP request's, suffixed per call in a message array. */
  nextRequestId: () => string;
  log: RunLog;
  /** Called after each call with its toolId, errorCode (null: a result) and request id. */
  onRun: (toolId: string, errorCode: string | null, requestId: string) => void;
}

export interface McpParts {
  facade: RunFacade;
  /** The jobs a task is (src/mcp/tasks.ts); null without the hub's Redis: no tasks. */
  jobs: JobQueue | null;
  /** How long a finished task is kept (JOBS_RESULT_TTL_SEC), in ms. */
  taskTtlMs: number;
  /** The server's name, title and version, as results' `_meta` carry them. */
  identity: ReturnType<typeof serverIdentity>;
  tools: McpTool[];
  resources: Map<string, McpResource>;
  listings: McpListings;
  version: string;
}

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's `Server`, with a message whose params fail the schema of its method answered
 * `-32602` (Invalid params) with a short message (src/mcp/params-error.ts), where the SDK
 * answers `-32603` (Internal error) with zod's whole issue dump. Every handler is wrapped,
 * the SDK's own (`initialize`, `server/discover`, `ping`) included.
 */
class HubServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (err) {
        throw paramsError(method, err) ?? err;
      }
    };
  }
}

/**
 * The MCP server of one HTTP request (the SDK's low-level `Server`: the hub answers
 * `tools/list` and `tools/call` itself, so that every call goes through the run facade,
 * its limits and its error codes, and the advertised schemas are the hub's own).
 */
export function mcpServer(parts: McpParts, caller: McpCaller): Server {
  const server = new HubServer(serverIdentity(parts.version), {
    capabilities: { tools: {}, resources: {}, ...(parts.jobs ? TASK_CAPABILITIES : {}) },
    instructions:
      "Developer and AI tools run by the hub. Read a tool's SKILL.md resource before its first call. A refused call is a result with isError whose text is a JSON error with an errorCode (also in _meta.error); honour retryAfterSec and never retry INVALID_INPUT unchanged.",
  });
  server.setRequestHandler('tools/list', async () => parts.listings.tools);
  server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args = {} } = request.params;
    if (!parts.facade.knows(name))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${quote(name)}`);
    return toCallResult(await runCall(parts, caller, name, args));
  });
  server.setRequestHandler('resources/list', async () => parts.listings.resources);
  server.setRequestHandler('resources/templates/list', async () => parts.listings.templates);
  server.setRequestHandler('resources/read', async (request) => {
    if (request.params.uri === USAGE_RESOURCE.uri) return readUsage(parts, caller);
    const resource = parts.resources.get(request.params.uri);
    if (!resource) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown resource: ${quote(request.params.uri)}`,
      );
    }
    return readResult(resource);
  });
  return server;
}

/** The server's name, title and version, as `initialize` and every modern result name it. */
export function serverIdentity(version: string) {
  return { name: 'tool-hub', title: 'Tool Hub', version };
}

/** One `tools/call` of a known tool as a run through the hub's facade (both answer paths). */
export async function runCall(
  parts: McpParts,
  caller: McpCaller,
  name: string,
  args: Record<string, unknown>,
): Promise<RunResult> {
  const requestId = caller.nextRequestId();
  const result = await parts.facade.run({
    toolId: name,
    surface: 'mcp',
    source: 'mcp',
    resolve: (def) => fromArguments(def, args, modeArgument(def)),
    client: caller.client,
    ...(caller.tier ? { tier: caller.tier } : {}),
    requestId,
    log: caller.log,
  });
  caller.onRun(name, result.ok ? null : result.error.code, requestId);
  return result;
}

/** The caller's usage (`toolhub://usage`) as a `resources/read` result: counted by the message limit like any message. */
export async function readUsage(parts: McpParts, caller: McpCaller) {
  const usage = await parts.facade.usage(caller.client, caller.tier);
  return readResult({ ...USAGE_RESOURCE, text: JSON.stringify(usage, null, 2) });
}

/** A `resources/read` result. */
export function readResult(resource: McpResource) {
  return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.text }] };
}
