import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routePath } from '../src/catalogue/route-doc.js';
import { buildTestApp, FIXTURE_TOOLS, type TestApp } from './helpers.js';

/**
 * One source (docs/api.md, "Client generation"): every route the hub serves has its operation
 * in the OpenAPI document, and every operation is a route the hub serves. The routes not
 * described are listed here with why; fastify's automatic HEAD routes are GET's.
 */
const NOT_OPERATIONS: { route: RegExp; why: string }[] = [
  { route: /^GET (\/|\/tools(\/.*)?)$/, why: 'the tool pages: HTML for people (docs/api.md, "Tool pages")' },
  { route: /^GET \/docs(\/.*)?$/, why: 'Swagger UI, the browsable form of this document' },
  {
    route: /^(GET|DELETE|PUT|PATCH|OPTIONS) \/mcp$/,
    why: "405 only (a stateless MCP server's transport answer), said in POST /mcp's description",
  },
  {
    route: /^POST \/api\/pipelines\/:pipelineId$/,
    why: 'the named pipelines\' one route: each pipeline has its own operation, POST /api/pipelines/<id>/ (docs/api.md, "Pipelines")',
  },
];

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp(
    { EXTRA_TOOL_DIRS: FIXTURE_TOOLS, PIPELINES_FILE: 'pipelines/examples.yaml' },
    true,
  );
});
afterAll(async () => {
  await app.close();
});

const trim = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

describe('the OpenAPI document and the routes', () => {
  it('describe each other: no route without its operation, no operation without its route', async () => {
    const doc = (await app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method.toUpperCase()} ${trim(routePath(path))}`),
      ),
    );
    const routes = new Set(
      [...app.routeMethods].flatMap(([path, methods]) =>
        [...methods].filter((m) => m !== 'HEAD').map((method) => `${method} ${path}`),
      ),
    );
    const undescribed = [...routes].filter(
      (r) => !operations.has(r) && !NOT_OPERATIONS.some((n) => n.route.test(r)),
    );
    expect(undescribed, 'routes without an operation').toEqual([]);
    // A named pipeline's operation is served by the pipelines' one route.
    const named = (o: string) =>
      /^POST \/api\/pipelines\/[^/]+$/.test(o) && app.pipelines.get(o.split('/')[3]!) !== undefined;
    expect(
      [...operations].filter((o) => !routes.has(o) && !named(o)),
      'operations without a route',
    ).toEqual([]);
    expect(operations).toContain('POST /api/pipelines/html-to-token-count');
    // Each exception still matches something: a stale one would hide a new route.
    for (const n of NOT_OPERATIONS)
      expect(
        [...routes].some((r) => n.route.test(r)),
        n.why,
      ).toBe(true);
    // The fixture tools' endpoints are routes and operations alike.
    expect(operations).toContain('GET /api/fx-echo');
  });

  it('answers a wrong method on a described path 405 with Allow (GET of the batch path)', async () => {
    const res = await app.inject({ url: '/api/tools/batch/' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toMatchObject({ ok: false, errorCode: 'TOOL_WRONG_SURFACE' });
    const descriptor = await app.inject({ url: '/api/tools/nope.json' });
    expect(descriptor.statusCode).toBe(404);
    expect(descriptor.json().error).toContain("no tool descriptor 'nope.json'");
  });
});
