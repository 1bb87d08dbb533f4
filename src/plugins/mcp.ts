import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { mcpResources } from '../mcp/resources.js';
import { type McpCaller, type McpParts, mcpServer } from '../mcp/server.js';
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
    const handler = createMcpHandler(
      ({ authInfo }) => mcpServer(parts, authInfo?.extra?.caller as McpCaller),
      {
        legacy: 'stateless',
        onerror: (err) => app.log.warn({ err }, 'MCP request failed'),
      },
    );
    app.addHook('onClose', async () => handler.close());
    // Its own context: the body reaches the SDK as it was sent (a malformed one gets the
    // JSON-RPC parse error the MCP spec asks for, not the hub's 400).
    await app.register(async (scope: FastifyInstance) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      scope.route({
        method: ['POST', 'GET', 'DELETE'],
        url: '/mcp',
        config: { toolSurface: true },
        handler: (request, reply) => serve(request, reply, handler.fetch, opts.allowedHosts),
      });
    });
  },
  { name: 'toolhub-mcp', dependencies: ['toolhub-runner', 'toolhub-catalogue'] },
);

type Fetch = ReturnType<typeof createMcpHandler>['fetch'];

async function serve(
  request: FastifyRequest,
  reply: FastifyReply,
  fetch: Fetch,
  allowedHosts: string[] | null,
): Promise<FastifyReply> {
  const webRequest = toWebRequest(request);
  const refused =
    allowedHosts &&
    (hostHeaderValidationResponse(webRequest, allowedHosts) ??
      originValidationResponse(webRequest, allowedHosts));
  const caller: McpCaller = {
    ...callerOf(request),
    requestId: request.id,
    log: request.log,
    onRun: (toolId, errorCode) => {
      request.toolId = toolId;
      request.errorCode = errorCode;
    },
  };
  const response =
    refused ||
    (await fetch(webRequest, {
      authInfo: { token: '', clientId: caller.client, scopes: [], extra: { caller } },
    }));
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
