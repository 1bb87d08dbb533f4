import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeHTML } from 'entities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanTools } from '../src/registry.js';
import { queryOf, toolExamples } from './dedicated-examples.js';
import { buildTestApp, policyFile, type TestApp } from './helpers.js';
import { type Answer, answerChecker, bodyChecker } from './openapi-answers.js';

/**
 * The OpenAPI document's contract, answer by answer: every tool's examples on both surfaces
 * (generic runtime and dedicated, POST and GET), their error cases, the catalogue, health,
 * batch and MCP answers each validate against the schema the document declares for that
 * operation, status and media type (docs/api.md, "Client generation").
 */
let app: TestApp;
let check: ReturnType<typeof answerChecker>;
let checkBody: ReturnType<typeof bodyChecker>;
beforeAll(async () => {
  app = await buildTestApp({}, true);
  const doc = (await app.inject({ url: '/api/openapi.json' })).json();
  check = answerChecker(doc);
  checkBody = bodyChecker(doc);
});
afterAll(async () => {
  await app.close();
});

const conforms = (method: string, path: string, res: Answer) => expect(check(method, path, res)).toBeNull();
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers });

const examples = toolExamples(await scanTools());

describe.each(examples.map((e) => [e.def.id, e] as const))('%s', (_id, { def, examples: ex, call }) => {
  it('basic example: the runtime and the dedicated answers are the documented 200s', async () => {
    const runtime = await post('/api/tools/run/', ex.basic);
    expect(runtime.statusCode, runtime.body).toBe(200);
    conforms('POST', '/api/tools/run/', runtime);
    const dedicated = await post(call.path, call.body);
    expect(dedicated.statusCode, dedicated.body).toBe(200);
    conforms('POST', call.path, dedicated);
    if (def.endpoints.find((ep) => ep.path === call.path)!.methods.includes('GET')) {
      const viaGet = await app.inject({ url: `${call.path}?${queryOf(call.body)}` });
      expect(viaGet.statusCode, viaGet.body).toBe(200);
      conforms('GET', call.path, viaGet);
    }
  }, 120_000);

  it("the tool page's curl lines send bodies of the declared types", async () => {
    const html = (await app.inject({ url: `/tools/${def.id}/` })).body;
    const lines = [...html.matchAll(/<pre class="curl"[^>]*><code>([^<]*)<\/code>/g)].map((m) =>
      decodeHTML(m[1]!),
    );
    expect(lines.length).toBe(def.endpoints.length);
    for (const line of lines.filter((l) => l.includes(' -X POST '))) {
      const path = new URL(/'(https?:[^']+)'/.exec(line)![1]!).pathname;
      const body = JSON.parse(line.slice(line.indexOf(" -d '") + 5, -1).replaceAll("'\\''", "'"));
      expect(checkBody(path, body), line).toBeNull();
    }
  });

  it('edge case and refusals: documented statuses with ToolRunError bodies', async () => {
    const edge = await post('/api/tools/run/', ex.edgeCase.request);
    expect(edge.statusCode, edge.body).toBe(ex.edgeCase.expect.status);
    conforms('POST', '/api/tools/run/', edge);
    const missing = await post(call.path, {});
    expect(missing.statusCode).toBe(400);
    conforms('POST', call.path, missing);
    const unknown = await post(call.path, { ...call.body, notAField: 1 });
    expect(unknown.statusCode).toBe(400);
    conforms('POST', call.path, unknown);
    const text = await post(call.path, 'x', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    conforms('POST', call.path, text);
  });
});

describe('the other operations', () => {
  it('runtime refusals: unknown tool, unknown mode, rate limited', async () => {
    for (const body of [
      { toolId: 'nope', a: 'x' },
      { toolId: 'qr-code', a: 'x', mode: 'nope' },
    ]) {
      conforms('POST', '/api/tools/run/', await post('/api/tools/run/', body));
      conforms('GET', '/api/tools/run/', await app.inject({ url: `/api/tools/run/?${queryOf(body)}` }));
    }
    const tight = await buildTestApp(
      { POLICY_FILE: await policyFile({ tools: { 'qr-code': { limit: 1, burst: 0 } } }) },
      true,
    );
    try {
      await tight.inject({ url: '/api/qr-code/?data=a' });
      const limited = await tight.inject({ url: '/api/qr-code/?data=a' });
      expect(limited.statusCode).toBe(429);
      conforms('GET', '/api/qr-code/', limited);
    } finally {
      await tight.close();
    }
  }, 120_000);

  it('batch: every basic example in one request', async () => {
    const res = await post('/api/tools/batch/', { runs: examples.map((e) => e.examples.basic) });
    expect(res.statusCode).toBe(200);
    conforms('POST', '/api/tools/batch/', res);
  }, 120_000);

  it('catalogue and health: every answer and the 404s', async () => {
    const get = async (path: string, url = path) => conforms('GET', path, await app.inject({ url }));
    for (const path of [
      '/api/skills-index.json',
      '/api/skills-bundle.json',
      '/api/openapi.json',
      '/api/openapi.yaml',
    ])
      await get(path);
    for (const id of ['qr-code', 'nope']) {
      await get('/api/tools/{toolId}.json', `/api/tools/${id}.json`);
      await get('/skills/{toolId}/SKILL.md', `/skills/${id}/SKILL.md`);
    }
    await get('/skills/common/{name}', '/skills/common/error-handling.md');
    await get('/skills/common/{name}', '/skills/common/nope.md');
    const first = await app.inject({ url: '/api/skills-index.json' });
    const again = await app.inject({
      url: '/api/skills-index.json',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    conforms('GET', '/api/skills-index.json', again);
    for (const path of ['/healthz', '/readyz', '/metrics']) await get(path);
  });

  it('MCP: JSON and SSE answers, accepted notifications and the transport refusals', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const mcp = async (body: unknown, extra: Record<string, string> = {}, status?: number) => {
      const res = await post('/mcp', typeof body === 'string' ? body : JSON.stringify(body), {
        ...headers,
        ...extra,
      });
      if (status !== undefined) expect(res.statusCode, res.body).toBe(status);
      conforms('POST', '/mcp', res);
      return res;
    };
    const era = { 'mcp-protocol-version': '2025-06-18' };
    const init = {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'contract', version: '1' },
    };
    const sse = await mcp({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init }, {}, 200);
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
    await mcp({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, era, 200);
    await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' }, era, 202);
    await mcp('{"jsonrpc":', {}, 400);
    await mcp({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { ...era, accept: 'text/html' }, 406);
    await mcp(
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      { ...era, origin: 'http://evil.example' },
      403,
    );
    const many = Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
    await mcp(many, era, 413);
  }, 120_000);

  it('shutting down: health, readiness, metrics and runs answer the documented 503', async () => {
    const closing = await buildTestApp();
    await closing.close();
    // A connection kept alive from before SIGTERM still reaches the router after close has
    // begun; the closed instance's router, served on its own socket, is that connection.
    const side = createServer(closing.routing).listen(0, '127.0.0.1');
    await once(side, 'listening');
    try {
      const base = `http://127.0.0.1:${(side.address() as AddressInfo).port}`;
      for (const [method, path, url] of [
        ['GET', '/healthz', '/healthz'],
        ['GET', '/readyz', '/readyz'],
        ['GET', '/metrics', '/metrics'],
        ['GET', '/api/tools/run/', '/api/tools/run/?toolId=fx-echo&a=x'],
        ['POST', '/api/tools/batch/', '/api/tools/batch/'],
      ] as const) {
        const res = await fetch(`${base}${url}`, {
          method,
          ...(method === 'POST'
            ? { body: '{"runs":[]}', headers: { 'content-type': 'application/json' } }
            : {}),
        });
        // forEach, not Object.fromEntries(res.headers): a dev dependency's global Headers type has no iterator.
        const headers: Record<string, string> = {};
        res.headers.forEach((value, name) => {
          headers[name] = value;
        });
        const answer = { statusCode: res.status, headers, body: await res.text() };
        expect(answer.statusCode, `${url}: ${answer.body}`).toBe(503);
        expect(JSON.parse(answer.body)).toMatchObject({ ok: false, errorCode: 'CONCURRENCY_LIMIT' });
        expect(res.headers.get('retry-after')).toBe('1');
        conforms(method, path, answer);
      }
    } finally {
      side.close();
      side.closeAllConnections();
    }
  });
});
