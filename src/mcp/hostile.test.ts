/**
 * The MCP door against a hostile client, through the whole app (inject): echoed header
 * values are bounded (src/mcp/echo.ts), every method but POST is the transport's 405 (CORS
 * preflights apart), and wrongly typed params are -32602 with a short message
 * (src/mcp/params-error.ts). docs/api.md, "MCP for agents" and "Errors".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, mcpMessage, type TestApp } from '../../test/helpers.js';

let app: TestApp;
let cors: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
  cors = await buildTestApp({ CORS_ORIGINS: 'https://app.example' });
});
afterAll(async () => {
  await app?.close();
  await cors?.close();
});

const LONG = 'v'.repeat(15_000);
const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'hostile', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    payload: JSON.stringify(body),
  });
  const data = mcpMessage(res.body);
  const message = data ? (JSON.parse(data) as { error?: RpcError; result?: unknown }) : {};
  return { status: res.statusCode, size: res.body.length, body: res.body, ...message };
}

/** Every string of an error: none holds more than 100 characters of a value, none is over 1,000. */
function expectBounded(error: RpcError | undefined) {
  expect(error).toBeDefined();
  const strings: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') strings.push(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(error);
  for (const s of strings) {
    expect(s.length).toBeLessThanOrEqual(1000);
    expect(s).not.toMatch(/v{101}/);
  }
}

describe('echoed header values are cut', () => {
  it('MCP-Protocol-Version of 15,000 characters: -32602, the value cut at 100', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': LONG });
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe(-32602);
    expect(res.error?.message).toContain(`${'v'.repeat(100)}…`);
    expectBounded(res.error);
    expect(res.size).toBeLessThan(2000);
  });

  it.each([
    ['Mcp-Name', { 'mcp-method': 'tools/call', 'mcp-name': LONG }],
    ['Mcp-Method', { 'mcp-method': LONG, 'mcp-name': 'fx-echo' }],
    [
      'MCP-Protocol-Version',
      { 'mcp-protocol-version': LONG, 'mcp-method': 'tools/call', 'mcp-name': 'fx-echo' },
    ],
    ['Mcp-Name with spaces', { 'mcp-method': 'tools/call', 'mcp-name': 'v '.repeat(7_500) }],
    ['Mcp-Name in Base64', { 'mcp-method': 'tools/call', 'mcp-name': `=?base64?${'djE'.repeat(5_000)}?=` }],
  ])('a %s header that does not match the body: -32020, every echo bounded', async (_name, headers) => {
    const res = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'fx-echo', arguments: { text: 'x' }, _meta: ENVELOPE },
      },
      { 'mcp-protocol-version': MODERN, ...headers },
    );
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe(-32020);
    expect(res.error?.data).toMatchObject({
      mismatch: { header: expect.any(String), body: expect.any(String) },
    });
    expectBounded(res.error);
    expect(res.body).not.toMatch(/(v |djE){101}/);
    expect(res.size).toBeLessThan(3000);
  });

  it('a body value the mismatch names is cut too', async () => {
    const res = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: LONG, arguments: {}, _meta: ENVELOPE } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' },
    );
    expect(res.error?.code).toBe(-32020);
    expectBounded(res.error);
    expect(res.size).toBeLessThan(2000);
  });

  it('an unknown tool or resource is named cut, quoted', async () => {
    const tool = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: LONG } },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(tool.error).toEqual({ code: -32602, message: `Unknown tool: '${'v'.repeat(100)}…'` });
    const resource = await post(
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: `toolhub://${LONG}` } },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(resource.error?.code).toBe(-32602);
    expectBounded(resource.error);
  });
});

describe('/mcp takes POST only', () => {
  it('answers OPTIONS as GET, DELETE, PUT, PATCH and HEAD: 405, Allow: POST, a JSON-RPC error', async () => {
    for (const method of ['OPTIONS', 'GET', 'DELETE', 'PUT', 'PATCH', 'HEAD'] as const) {
      const res = await app.inject({ method, url: '/mcp', headers: { origin: 'https://app.example' } });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow, method).toBe('POST');
      if (method !== 'HEAD') {
        expect(res.json(), method).toEqual({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed.' },
          id: null,
        });
      }
    }
  });

  it('with CORS_ORIGINS set, answers an allowed preflight 204 and any other OPTIONS 405', async () => {
    const preflight = await cors.inject({
      method: 'OPTIONS',
      url: '/mcp',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type, mcp-protocol-version');
    for (const headers of [{}, { origin: 'https://evil.example', 'access-control-request-method': 'POST' }]) {
      const res = await cors.inject({ method: 'OPTIONS', url: '/mcp', headers });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });
});

describe('wrongly typed params are -32602 with a short message', () => {
  const LEGACY = { 'mcp-protocol-version': '2025-11-25' };
  it.each([
    [
      'initialize',
      undefined,
      { protocolVersion: 5 },
      'params.protocolVersion: expected string, received number',
    ],
    [
      'initialize',
      undefined,
      { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x' } },
      'params.clientInfo.version',
    ],
    ['tools/call', LEGACY, { name: 5 }, 'params.name: expected string, received number'],
    [
      'tools/call',
      LEGACY,
      { name: 'fx-echo', arguments: [1] },
      'params.arguments: expected record, received array',
    ],
    ['resources/read', LEGACY, { uri: 5 }, 'params.uri: expected string, received number'],
    ['tools/list', LEGACY, { cursor: 5 }, 'params.cursor: expected string, received number'],
    ['resources/templates/list', LEGACY, { cursor: [] }, 'params.cursor: expected string, received array'],
  ] as const)('%s %j', async (method, headers, params, names) => {
    const res = await post({ jsonrpc: '2.0', id: 7, method, params }, headers);
    expect(res.status).toBe(200);
    expect(res.error?.code).toBe(-32602);
    expect(res.error?.message).toMatch(new RegExp(`^Invalid params for ${method}: `));
    expect(res.error?.message).toContain(names);
    expect(res.error?.message).not.toContain('\n');
    expect(res.error?.message.length).toBeLessThan(400);
  });

  it('the same in the 2026-07-28 envelope', async () => {
    for (const [method, params, name] of [
      ['tools/call', { name: 'fx-echo', arguments: [1] }, 'fx-echo'],
      ['tools/list', { cursor: 5 }, undefined],
    ] as const) {
      const res = await post(
        { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: ENVELOPE } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
      );
      expect(res.error?.code, method).toBe(-32602);
      expect(res.error?.message, method).toMatch(
        /^Invalid params for [a-z/]+: params\.(arguments|cursor): expected/,
      );
    }
  });

  it('a well-formed initialize still succeeds', async () => {
    const res = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect(res.result).toMatchObject({ protocolVersion: '2025-11-25' });
  });
});
