import { createMcpHandler, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { answerDirect, type DirectAnswer, type DirectRequest } from './direct.js';
import { boundErrorAnswer, longHeaderValues } from './echo.js';
import { type McpCaller, type McpParts, mcpServer } from './server.js';
import { answerTask } from './tasks.js';

/** What the /mcp route needs of the official SDK; src/plugins/mcp.ts loads this module lazily. */
export interface McpHandler {
  /** Why Host or Origin is not allowed (DNS rebinding, the SDK's own checks), or null. */
  refuse: (host: string | undefined, origin: string | undefined, allowedHosts: string[]) => string | null;
  /** The hub's own answer to a hot message (src/mcp/direct.ts), or null: ask `fetch`. */
  direct: (request: DirectRequest, caller: McpCaller) => Promise<DirectAnswer | null>;
  /** The SDK's answer, read whole, with the header values and fields its errors echo cut (src/mcp/echo.ts). */
  fetch: (request: Request, caller: McpCaller) => Promise<SdkAnswer>;
  close: () => Promise<void>;
}

/** An answer of the SDK as the route sends it: read once, here. */
export interface SdkAnswer {
  status: number;
  headers: Headers;
  body: string;
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
    direct: async (request, caller) =>
      (await answerTask(parts, caller, request)) ?? answerDirect(parts, caller, request),
    fetch: async (request, caller) => {
      const response = await handler.fetch(request, {
        authInfo: { token: '', clientId: caller.client, scopes: [], extra: { caller } },
      });
      return boundEchoes(request, response);
    },
    close: async () => {
      await handler.close();
    },
  };
}

/**
 * The SDK's answer with the values its errors echo bounded: it repeats header values whole
 * (a 15,000-character `Mcp-Name` that does not match the body comes back three times, in
 * `message` and `data.mismatch`), where every answer of the hub cuts them (docs/api.md,
 * "Errors"). Any other answer goes out as the SDK made it.
 */
async function boundEchoes(request: Request, response: Response): Promise<SdkAnswer> {
  const text = await response.text();
  const bounded = boundErrorAnswer(
    response.headers.get('content-type'),
    text,
    longHeaderValues(request.headers),
  );
  const headers = new Headers(response.headers);
  if (bounded !== null) headers.delete('content-length');
  return { status: response.status, headers, body: bounded ?? text };
}
