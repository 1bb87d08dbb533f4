import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HubError } from '../errors.js';
import { ASSET_PREFIX, loadAssets } from '../pages/assets.js';
import { readExample, tryItModel } from '../pages/form-model.js';
import { renderIndex } from '../pages/index-page.js';
import { renderNotFound, renderToolPage } from '../pages/tool-page.js';
import type { RegisteredTool } from '../registry.js';

/**
 * Nothing but the hub's own scripts, styles and data: URL images; the Markdown preview is a
 * sandboxed srcdoc frame, which inherits this policy and needs no frame-src.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'none'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The tool pages' headers; /docs is served under the same (src/plugins/catalogue.ts). */
export const PAGE_HEADERS = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

interface Page {
  body: string;
  etag: string;
}

const page = (body: string): Page => ({
  body,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
});

/**
 * The tool pages: `/tools/` and `/tools/<toolId>/`, rendered once at boot from the tool
 * definitions and the effective policies, and their assets under /tools/assets/<hash>/.
 * `/` redirects to `/tools/`. Runs from the pages go to the dedicated endpoints like any client's.
 */
export default fp(
  async (app) => {
    // The public base address goes into the curl lines.
    const opts = app.hubConfig;
    const assets = loadAssets();
    if (assets.missing) app.log.warn('the tool pages have no script or stylesheet: run `npm run build`');
    // Rendered again once after the named pipelines change (SIGHUP), on the first request after.
    const render = () => {
      const tools = app.pipelines.tools;
      const pages = new Map<string, Page>();
      for (const [id, tool] of tools) {
        const policy = app.pipelines.policies.get(id)!;
        const body = renderToolPage({
          def: tool.def,
          policy,
          callable: opts.runsEnabled && policy.enabled,
          keyRequired: app.apiKeys !== null,
          model: tryItModel(tool.def, exampleOf(tool)),
          tools,
          baseUrl: opts.baseUrl,
          assets: assets.urls,
        });
        pages.set(id, page(body));
      }
      return { version: app.pipelines.version, index: page(renderIndex(tools, assets.urls)), pages };
    };
    let rendered = render();
    const current = () => {
      if (rendered.version !== app.pipelines.version) rendered = render();
      return rendered;
    };

    const send = (request: FastifyRequest, reply: FastifyReply, doc: Page) => {
      reply.headers(PAGE_HEADERS).header('ETag', doc.etag).header('Cache-Control', 'no-cache');
      if (request.headers['if-none-match'] === doc.etag) return reply.code(304).send();
      return reply.type('text/html; charset=utf-8').send(doc.body);
    };
    const notFound = (request: FastifyRequest, reply: FastifyReply) => {
      const path = (request.url.split('?')[0] ?? '').slice(0, 200);
      // A browser gets a page; any other client the ToolRunError every other path answers.
      if (!request.headers.accept?.includes('text/html'))
        throw new HubError('INVALID_INPUT', `no page ${path}; see /tools/`, { status: 404 });
      return reply
        .code(404)
        .headers(PAGE_HEADERS)
        .type('text/html; charset=utf-8')
        .send(renderNotFound(path, assets.urls));
    };

    app.get('/', (_request, reply) => reply.redirect('/tools/', 302));
    app.get('/tools/', (request, reply) => send(request, reply, current().index));
    app.get<{ Params: { toolId: string } }>('/tools/:toolId/', (request, reply) => {
      const doc = current().pages.get(request.params.toolId);
      return doc ? send(request, reply, doc) : notFound(request, reply);
    });
    app.get('/tools/*', notFound);
    app.get<{ Params: { hash: string; file: string } }>(`${ASSET_PREFIX}:hash/:file`, (request, reply) => {
      const asset = request.params.hash === assets.hash ? assets.files.get(request.params.file) : undefined;
      if (!asset)
        throw new HubError('INVALID_INPUT', `no asset ${request.url.slice(0, 200)}`, { status: 404 });
      return reply
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        .type(asset.type)
        .send(asset.body);
    });
  },
  { name: 'toolhub-pages', dependencies: ['toolhub-facade', 'toolhub-api-keys', 'toolhub-pipelines'] },
);

/** The page's example: a tool's examples/basic.json, a named pipeline's `example` (its named fields). */
function exampleOf(tool: RegisteredTool): { mode: string; fields: Record<string, string> } {
  const { def, generated } = tool;
  if (!generated) return readExample(def, tool.docsDir);
  const fields = Object.fromEntries(
    Object.entries(generated.example ?? {}).map(([k, v]) => [
      k,
      typeof v === 'string' ? v : JSON.stringify(v),
    ]),
  );
  return { mode: def.modes[0]!, fields };
}
