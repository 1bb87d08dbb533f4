import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { buildCatalogue, type Catalogue, type Served } from '../catalogue/catalogue.js';
import type { CatalogueContext } from '../catalogue/descriptor.js';
import { type RouteDoc, routePath, routeSchema } from '../catalogue/route-doc.js';
import { ROUTE_DOCS } from '../catalogue/route-docs.js';
import { HubError } from '../errors.js';
import { quote } from '../shared/quote.js';
import { PAGE_CSP, PAGE_HEADERS } from './pages.js';

declare module 'fastify' {
  interface FastifyInstance {
    catalogue: Catalogue;
  }
}

/**
 * The tool pages' CSP and headers for /docs and everything under it. Swagger UI's page, scripts,
 * styles and its logo (a data: URL) come from /docs itself, and @fastify/swagger-ui serves
 * the initializer as a file, not an inline script. The one inline thing is the `<style>`
 * element of the standalone preset's topbar logo SVG: its hash lets exactly that element in,
 * with no 'unsafe-inline' (@fastify/swagger-ui is pinned; a test recomputes the hash from
 * the installed preset). validatorUrl stays null, the plugin's default: no badge is fetched.
 */
export const DOCS_CSP = PAGE_CSP.replace(
  "style-src 'self'",
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
);
const DOCS_HEADERS = { ...PAGE_HEADERS, 'Content-Security-Policy': DOCS_CSP };

/**
 * The document Swagger UI loads (/docs/json) lists the relative server `/` first: its "Try it
 * out" then calls the origin the page was opened at (127.0.0.1, a LAN address, a proxy's
 * name), which DOCS_CSP's `connect-src 'self'` allows and which needs no CORS. PUBLIC_BASE_URL
 * follows, for a page opened there; /api/openapi.json keeps it alone, the address generated
 * clients are given (docs/api.md, "Catalogue for agents").
 */
function forSwaggerUi(doc: Catalogue['openapi']): never {
  const advertised = (doc.servers as { url: string }[]).map((s) => ({
    ...s,
    description: 'PUBLIC_BASE_URL',
  }));
  const here = { url: '/', description: 'This hub, at the address this page was opened from' };
  return { ...doc, servers: [here, ...advertised] } as never;
}

/**
 * The catalogue for agents and client generators: skills index and bundle, tool
 * descriptors, SKILL.md files, the OpenAPI document and a browsable reference at /docs.
 * Everything is built once at boot from the tool modules and served from memory
 * with an ETag (a matching If-None-Match gets 304).
 */
export default fp(
  async (app) => {
    const { env, baseUrl, runsEnabled } = app.hubConfig;
    const context: CatalogueContext = {
      baseUrl,
      runsEnabled,
      batchMaxRuns: env.BATCH_MAX_RUNS,
      jobsBatchMaxRuns: env.JOBS_BATCH_MAX_RUNS,
      tools: app.pipelines.tools,
      policies: app.pipelines.policies,
    };
    // Built again after the named pipelines change (SIGHUP), on the first request that reads it.
    let built = { version: app.pipelines.version, catalogue: buildCatalogue(context) };
    const current = (): Catalogue => {
      const { version } = app.pipelines;
      if (built.version !== version) {
        const ctx = { ...context, tools: app.pipelines.tools, policies: app.pipelines.policies };
        built = { version, catalogue: buildCatalogue(ctx) };
      }
      return built.catalogue;
    };
    app.decorate('catalogue', { getter: current });

    const send = (request: FastifyRequest, reply: FastifyReply, doc: Served) => {
      reply.header('ETag', doc.etag).header('Cache-Control', 'public, max-age=60');
      if (request.headers['if-none-match'] === doc.etag) return reply.code(304).send();
      return reply.type(doc.type).send(doc.body);
    };
    // Each route at the path and with the answers of its declaration (src/catalogue/route-docs.ts).
    const get = (doc: RouteDoc, handler: (req: FastifyRequest, reply: FastifyReply) => FastifyReply) =>
      app.get(routePath(doc.url), { schema: routeSchema(doc) }, handler);
    get(ROUTE_DOCS.skillsIndex, (req, reply) => send(req, reply, current().index));
    get(ROUTE_DOCS.skillsBundle, (req, reply) => send(req, reply, current().bundle));
    get(ROUTE_DOCS.openapiJson, (req, reply) => send(req, reply, current().openapiJson));
    get(ROUTE_DOCS.openapiYaml, (req, reply) => send(req, reply, current().openapiYaml()));
    // `/api/tools/:toolId.json`: other paths under /api/tools/ (GET of the batch path) reach the
    // not-found handler, which answers 405 with Allow where the path takes other methods.
    get(ROUTE_DOCS.descriptor, (req, reply) => {
      const { toolId } = req.params as { toolId: string };
      const doc = current().descriptors.get(toolId);
      if (!doc)
        throw new HubError(
          'INVALID_INPUT',
          `no tool descriptor ${quote(`${toolId}.json`)}; try /api/skills-index.json`,
          { status: 404 },
        );
      return send(req, reply, doc);
    });
    const skill = (req: FastifyRequest, reply: FastifyReply) => {
      const doc = current().markdown.get(req.url.split('?')[0] ?? '');
      if (!doc) throw new HubError('INVALID_INPUT', `no skill file ${req.url}`, { status: 404 });
      return send(req, reply, doc);
    };
    get(ROUTE_DOCS.skillMd, skill);
    get(ROUTE_DOCS.commonSkill, skill);

    await app.register(swagger, {
      mode: 'static',
      // The document as at boot: /docs is a reader's view; /api/openapi.json follows SIGHUP.
      specification: { document: forSwaggerUi(built.catalogue.openapi) },
    });
    // Swagger UI under the tool pages' policy (docs/api.md, "Tool pages"); DOCS_HEADERS says why it fits.
    await app.register(async (docs) => {
      docs.addHook('onRequest', (_request, reply, done) => {
        reply.headers(DOCS_HEADERS);
        done();
      });
      await docs.register(swaggerUi, { routePrefix: '/docs' });
    });
  },
  { name: 'toolhub-catalogue', dependencies: ['toolhub-facade', 'toolhub-pipelines'] },
);
