import {
  createMcpHandler,
  hostHeaderValidationResponse,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { type McpCaller, type McpParts, mcpServer } from './server.js';

/** What the /mcp route needs of the official SDK; src/plugins/mcp.ts loads this module lazily. */
export interface McpHandler {
  /** A refusal when Host or Origin is not allowed (DNS rebinding), else undefined. */
  refuse: (request: Request, allowedHosts: string[]) => Response | undefined;
  fetch: (request: Request, caller: McpCaller) => Promise<Response>;
  close: () => Promise<void>;
}

export function mcpHandler(parts: McpParts, onerror: (err: unknown) => void): McpHandler {
  const handler = createMcpHandler(({ authInfo }) => mcpServer(parts, authInfo?.extra?.caller as McpCaller), {
    legacy: 'stateless',
    onerror,
  });
  return {
    refuse: (request, allowedHosts) =>
      hostHeaderValidationResponse(request, allowedHosts) ?? originValidationResponse(request, allowedHosts),
    fetch: (request, caller) =>
      handler.fetch(request, {
        authInfo: { token: '', clientId: caller.client, scopes: [], extra: { caller } },
      }),
    close: async () => {
      await handler.close();
    },
  };
}
