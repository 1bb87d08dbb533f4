import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { McpHandler } from '../mcp/handler.js';
import { mcpResources } from '../mcp/resources.js';
import type { McpCaller, McpParts } from '../mcp/server.js';
import { mcpTools } from '../mcp/tools.js';
import { projectRoot } from '../paths.js';
import { callerOf } from './api-keys.js';

export interface McpOptions {
  /** Names accepted in Host/Origin; null: no check (src/mcp/hosts.ts). */
  allowedHosts: string[] | null;
}

/**
 * The Model Context Protocol endpoint, `/mcp` (docs/api.md, "MCP"): Streamable HTTP,
 * stateless (any replica answers any request), served by the official SDK's
 * `createMcpHandler` in this fastify process. It speaks the current revision (2026-07-28)
 * and, from the same per-request server, the 2025 revisions (2025-06-18, 2025-11-25).
 * Every `tools/call` is one run through the hub's facade, limits and pool (source `mcp`).
 *
 * The SDK is loaded once the hub listens, in the background (or by the first /mcp request,
 * whichever comes first): importing it costs the boot ~200 ms (docs/operations.md, "Boot").
 */
export default fp<McpOptions>(
  async (app, opts) => {
    const version = String(JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).version);
    const parts: McpParts = {
      hub: app.hub,
      tools: mcpTools(app.tools),
      resources: mcpResources(app.catalogue),
      version,
    };
    let handler: Promise<McpHandler> | undefined;
    const load = (): Promise<McpHandler> => {
      if (!handler) {
        handler = import('../mcp/handler.js').then((m) =>
          m.mcpHandler(parts, (err) => app.log.warn({ err }, 'MCP request failed')),
        );
        // A failed load (EMFILE in a flood) is logged and retried by the next request.
        handler.catch((err: unknown) => {
          handler = undefined;
          app.log.error({ err }, 'MCP SDK failed to load');
        });
      }
      return handler;
    };
    app.addHook('onListen', (done) => {
      // Not awaited: the hub is ready before the SDK is.
      load().catch(() => {});
      done();
    });
    app.addHook('onClose', async () => {
      if (handler) await (await handler.catch(() => null))?.close();
    });
    // Its own context: the body reaches the SDK as it was sent (a malformed one gets the
    // JSON-RPC parse error the MCP spec asks for, not the hub's 400).
    await app.register(async (scope: FastifyInstance) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      scope.route({
        method: ['POST', 'GET', 'DELETE'],
        url: '/mcp',
        config: { toolSurface: true },
        handler: async (request, reply) => serve(request, reply, await load(), opts.allowedHosts),
      });
    });
  },
  { name: 'toolhub-mcp', dependencies: ['toolhub-runner', 'toolhub-catalogue'] },
);

async function serve(
  request: FastifyRequest,
  reply: FastifyReply,
  handler: McpHandler,
  allowedHosts: string[] | null,
): Promise<FastifyReply> {
  const webRequest = toWebRequest(request);
  const refused = allowedHosts && handler.refuse(webRequest, allowedHosts);
  const caller: McpCaller = {
    ...callerOf(request),
    requestId: request.id,
    log: request.log,
    onRun: (toolId, errorCode) => {
      request.toolId = toolId;
      request.errorCode = errorCode;
    },
  };
  const response = refused || (await handler.fetch(webRequest, caller));
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // A Host that is no host name cannot be validated (it is refused with 403 as unknown).
  const url = safeUrl(`http://${request.headers.host ?? 'localhost'}${request.url}`);
  const body = typeof request.body === 'string' && request.method === 'POST' ? request.body : undefined;
  return new Request(url, { method: request.method, headers, ...(body !== undefined ? { body } : {}) });
}

function safeUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return 'http://invalid.invalid/mcp';
  }
}
