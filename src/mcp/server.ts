import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { Tier } from '../auth/tiers.js';
import type { Hub } from '../run/hub.js';
import { fromArguments } from '../run/input.js';
import type { RunLog } from '../run/run-types.js';
import { toCallResult } from './call-result.js';
import type { McpResource } from './resources.js';
import { type McpTool, modeArgument } from './tools.js';

/** Who is calling: counted by the same limits as an HTTP client with this identity. */
export interface McpCaller {
  client: string;
  tier?: Tier;
  requestId: string;
  log: RunLog;
  /** Called with the toolId and, for a refusal, its errorCode (the access log). */
  onRun: (toolId: string, errorCode: string | null) => void;
}

export interface McpParts {
  hub: Hub;
  tools: McpTool[];
  resources: Map<string, McpResource>;
  version: string;
}

/**
 * The MCP server of one HTTP request (the SDK's low-level `Server`: the hub answers
 * `tools/list` and `tools/call` itself, so that every call goes through the run facade,
 * its limits and its error codes, and the advertised schemas are the hub's own).
 */
export function mcpServer(parts: McpParts, caller: McpCaller): Server {
  const server = new Server(
    { name: 'tool-hub', title: 'Tool Hub', version: parts.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        "Developer and AI tools run by the hub. Read a tool's SKILL.md resource before its first call. A refused call is a result with isError and an errorCode; honour retryAfterSec and never retry INVALID_INPUT unchanged.",
    },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: parts.tools }));
  server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args = {} } = request.params;
    const tool = parts.hub.tools.get(name);
    if (!tool)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 100)}`);
    const result = await parts.hub.run({
      toolId: name,
      surface: 'mcp',
      source: 'mcp',
      resolve: (def) => fromArguments(def, args, modeArgument(def)),
      client: caller.client,
      ...(caller.tier ? { tier: caller.tier } : {}),
      requestId: caller.requestId,
      log: caller.log,
    });
    caller.onRun(name, result.ok ? null : result.error.code);
    return toCallResult(result);
  });
  server.setRequestHandler('resources/list', async () => ({
    resources: [...parts.resources.values()].map(({ text: _text, ...listing }) => listing),
  }));
  server.setRequestHandler('resources/read', async (request) => {
    const resource = parts.resources.get(request.params.uri);
    if (!resource) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown resource: ${request.params.uri.slice(0, 200)}`,
      );
    }
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.text }] };
  });
  return server;
}
