import { createMcpHandler, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { answerDirect, type DirectAnswer, type DirectRequest } from './direct.js';
import { type McpCaller, type McpParts, mcpServer } from './server.js';

/** What the /mcp route needs of the official SDK; src/plugins/mcp.ts loads this module lazily. */
export interface McpHandler {
  /** Why Host or Origin is not allowed (DNS rebinding, the SDK's own checks), or null. */
  refuse: (host: string | undefined, origin: string | undefined, allowedHosts: string[]) => string | null;
  /** The hub's own answer to a hot message (src/mcp/direct.ts), or null: ask `fetch`. */
  direct: (request: DirectRequest, caller: McpCaller) => Promise<DirectAnswer | null>;
  /** The SDK's answer. */
  fetch: (request: Request, caller: McpCaller) => Promise<Response>;
  close: () => Promise<void>;
}

export function mcpHandler(parts: McpParts, onerror: (err: unknown) => void): McpHandler {
  const handler = createMcpHandler(({ authInfo }) => mcpServer(parts, authInfo?.extra?.caller as McpCaller), {
    legacy: 'stateless',
    onerror,
  });
  return {
    refuse: (host, origin, allowedHosts) => {
      const checked = validateHostHeader(host, allowedHosts);
      if (!checked.ok) return checked.message;
      const from = validateOriginHeader(origin, allowedHosts);
      return from.ok ? null : from.message;
    },
    direct: (request, caller) => answerDirect(parts, caller, request),
    fetch: (request, caller) =>
      handler.fetch(request, {
        authInfo: { token: '', clientId: caller.client, scopes: [], extra: { caller } },
      }),
    close: async () => {
      await handler.close();
    },
  };
}
