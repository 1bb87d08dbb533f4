import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { buildCatalogue, type Catalogue, type Served } from '../catalogue/catalogue.js';
import type { CatalogueContext } from '../catalogue/descriptor.js';
import { HubError } from '../errors.js';
import { type RouteDoc, routeSchema } from '../routes/route-doc.js';
import { ROUTE_DOCS } from '../routes/route-docs.js';
import { quote } from '../shared/quote.js';

declare module 'fastify' {
  interface FastifyInstance {
    catalogue: Catalogue;
  }
}

/**
 * The catalogue for agents and client generators: skills index and bundle, tool
 * descriptors, SKILL.md files, the OpenAPI document and a browsable reference at /docs.
 * Everything is built once at boot from the tool modules and served from memory
 * with an ETag (a matching If-None-Match gets 304).
 */
export default fp<Omit<CatalogueContext, 'tools' | 'policies'>>(
  async (app, opts) => {
    const catalogue = buildCatalogue({ ...opts, tools: app.tools, policies: app.policies });
    app.decorate('catalogue', catalogue);

    const send = (request: FastifyRequest, reply: FastifyReply, doc: Served) => {
      reply.header('ETag', doc.etag).header('Cache-Control', 'public, max-age=60');
      if (request.headers['if-none-match'] === doc.etag) return reply.code(304).send();
      return reply.type(doc.type).send(doc.body);
    };
    const opts_ = (doc: RouteDoc) => ({ schema: routeSchema(doc) });
    app.get('/api/skills-index.json', opts_(ROUTE_DOCS.skillsIndex), (req, reply) =>
      send(req, reply, catalogue.index),
    );
    app.get('/api/skills-bundle.json', opts_(ROUTE_DOCS.skillsBundle), (req, reply) =>
      send(req, reply, catalogue.bundle),
    );
    app.get('/api/openapi.json', opts_(ROUTE_DOCS.openapiJson), (req, reply) =>
      send(req, reply, catalogue.openapiJson),
    );
    app.get('/api/openapi.yaml', opts_(ROUTE_DOCS.openapiYaml), (req, reply) =>
      send(req, reply, catalogue.openapiYaml()),
    );
    app.get<{ Params: { file: string } }>('/api/tools/:file', opts_(ROUTE_DOCS.descriptor), (req, reply) => {
      const id = req.params.file.endsWith('.json') ? req.params.file.slice(0, -5) : '';
      const doc = catalogue.descriptors.get(id);
      if (!doc)
        throw new HubError(
          'INVALID_INPUT',
          `no tool descriptor ${quote(req.params.file)}; try /api/skills-index.json`,
          { status: 404 },
        );
      return send(req, reply, doc);
    });
    app.get('/skills/*', (req, reply) => {
      const doc = catalogue.markdown.get(req.url.split('?')[0] ?? '');
      if (!doc) throw new HubError('INVALID_INPUT', `no skill file ${req.url}`, { status: 404 });
      return send(req, reply, doc);
    });

    await app.register(swagger, { mode: 'static', specification: { document: catalogue.openapi as never } });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'toolhub-catalogue', dependencies: ['toolhub-runner'] },
);
