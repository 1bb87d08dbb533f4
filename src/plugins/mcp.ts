import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { McpHandler } from '../mcp/handler.js';
import { mcpAllowedHosts } from '../mcp/hosts.js';
import { mcpListings } from '../mcp/listings.js';
import { McpMessageLimit } from '../mcp/message-limit.js';
import { MCP_RESOURCE_TEMPLATES, mcpResources } from '../mcp/resources.js';
import { type McpParts, serverIdentity } from '../mcp/server.js';
import { mcpTools } from '../mcp/tools.js';
import type { MessageArrayBounds } from '../mcp/wire.js';
import { hubVersion } from '../registry.js';
import { serveMcp } from './mcp-serve.js';

export interface McpOptions extends MessageArrayBounds {
  /** Names accepted in Host/Origin; null: no check (src/mcp/hosts.ts). */
  allowedHosts: string[] | null;
  /** MCP_MESSAGE_LIMIT: messages a minute per client; 0: off. */
  messageLimit: number;
  /** REDIS_PREFIX, for the message counts in Redis. */
  prefix: string;
}

/** What the MCP door is made of, from the app's registry and catalogue (the tests build it too). */
export function mcpParts(app: FastifyInstance): McpParts {
  const version = hubVersion();
  // The tools, named pipelines included: built again once after the pipelines change (SIGHUP).
  const build = () => {
    const tools = mcpTools(app.pipelines.tools, app.jobs !== null);
    const resources = mcpResources(app.catalogue);
    return {
      version: app.pipelines.version,
      tools,
      resources,
      listings: mcpListings(tools, resources, MCP_RESOURCE_TEMPLATES),
    };
  };
  let built = build();
  const current = () => {
    if (built.version !== app.pipelines.version) built = build();
    return built;
  };
  return {
    facade: app.facade,
    jobs: app.jobs,
    taskTtlMs: app.hubConfig.env.JOBS_RESULT_TTL_SEC * 1000,
    identity: serverIdentity(version),
    get tools() {
      return current().tools;
    },
    get resources() {
      return current().resources;
    },
    get listings() {
      return current().listings;
    },
    version,
  };
}

/**
 * The Model Context Protocol endpoint, `/mcp` (docs/api.md, "MCP for agents"): Streamable
 * HTTP, stateless (any replica answers any request), served by the official SDK's
 * `createMcpHandler` in this fastify process, with the hot messages answered by the hub
 * itself (src/mcp/direct.ts). It speaks the current revision (2026-07-28) and, from the
 * same per-request server, the 2025 revisions (2025-06-18, 2025-11-25). Every `tools/call`
 * is one run through the hub's facade, limits and pool (source `mcp`); every message is
 * metered (src/mcp/message-limit.ts) and junk is counted like junk on the other routes.
 *
 * The SDK is loaded once the hub listens, in the background (or by the first /mcp request,
 * whichever comes first): importing it costs the boot ~200 ms (docs/operations.md, "Boot").
 */
export default fp(
  async (app) => {
    const { env } = app.hubConfig;
    const opts: McpOptions = {
      allowedHosts: mcpAllowedHosts(env.MCP_ALLOWED_HOSTS, env.HOST, env.PUBLIC_BASE_URL),
      messageLimit: env.MCP_MESSAGE_LIMIT,
      maxMessages: env.MCP_BATCH_MAX_MESSAGES,
      maxAnswerBytes: env.MCP_BATCH_MAX_ANSWER_BYTES,
      prefix: env.REDIS_PREFIX,
    };
    app.decorateRequest('mcpCalls', null);
    const parts = mcpParts(app);
    const limit = new McpMessageLimit(opts.messageLimit, app.limits);
    let handler: Promise<McpHandler> | undefined;
    const load = (): Promise<McpHandler> => {
      if (!handler) {
        handler = import('../mcp/handler.js').then((m) =>
          m.mcpHandler(parts, (err) => app.log.debug({ err }, 'MCP request refused by the SDK')),
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
    const ctx = { parts, limit, bounds: opts, allowedHosts: opts.allowedHosts, load };
    // Its own context: the body reaches the SDK as it was sent (a malformed one gets the
    // JSON-RPC parse error the MCP spec asks for, not the hub's 400).
    await app.register(async (scope: FastifyInstance) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      // Every method but POST gets the transport's 405 with Allow: POST (serveMcp), OPTIONS
      // too; with CORS_ORIGINS set, an allowed preflight is answered 204 before it (cors.ts).
      scope.route({
        method: ['POST', 'GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'],
        url: '/mcp',
        config: { toolSurface: true },
        handler: (request, reply) => serveMcp(ctx, request, reply),
      });
    });
  },
  {
    name: 'toolhub-mcp',
    dependencies: [
      'toolhub-facade',
      'toolhub-catalogue',
      'toolhub-limits',
      'toolhub-jobs',
      'toolhub-pipelines',
    ],
  },
);
