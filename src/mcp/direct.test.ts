/**
 * The hub's own answers to hot MCP messages (src/mcp/direct.ts) against the SDK's answers
 * to the same requests, on the same app: the SDK is the oracle. Whatever the direct path
 * declines must reach the SDK (null), never a different answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { mcpParts } from '../plugins/mcp.js';
import { type McpHandler, mcpHandler } from './handler.js';
import type { McpCaller } from './server.js';

let app: TestApp;
let handler: McpHandler;
beforeAll(async () => {
  app = await buildTestApp({}, true);
  handler = mcpHandler(mcpParts(app), () => {});
});
afterAll(async () => {
  await handler?.close();
  await app?.close();
});

const caller = (): McpCaller => ({
  client: 'oracle',
  log: app.log,
  nextRequestId: () => 'oracle-call',
  onRun: () => {},
});

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'oracle', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function request(era: string, method: string, params?: Record<string, unknown>) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era,
  };
  let p = params;
  if (era === '2026-07-28') {
    headers['mcp-method'] = method;
    const name = params?.name ?? params?.uri;
    if (typeof name === 'string') headers['mcp-name'] = name;
    p = { ...(params ?? {}), _meta: ENVELOPE };
  }
  const body = { jsonrpc: '2.0', id: 42, method, ...(p ? { params: p } : {}) };
  return { headers, body };
}

/**
 * The JSON-RPC messages of an answer (JSON or SSE), with the run's timings and ids removed,
 * and what the rate limit has left (each call counts, so the second finds one less).
 */
function messagesOf(text: string): unknown[] {
  const chunks =
    text.startsWith('event:') || text.startsWith('data:')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
      : [text];
  return chunks.map((c) =>
    JSON.parse(c, (key, value) => {
      if (['requestId', 'durationMs', 'queuedMs', 'cached'].includes(key)) return undefined;
      if (key === 'rateLimit') return { ...value, remaining: undefined, resetMs: undefined };
      return key === 'RateLimit' ? String(value).replace(/;r=\d+;t=\d+/g, '') : value;
    }),
  );
}

const CASES: [string, Record<string, unknown> | undefined][] = [
  ['tools/list', undefined],
  ['resources/list', undefined],
  ['resources/templates/list', undefined],
  ['resources/read', { uri: 'toolhub://skills/regex-tester/SKILL.md' }],
  ['tools/call', { name: 'token-counter', arguments: { text: 'hello world', model: 'gpt-4o' } }],
  ['tools/call', { name: 'regex-tester', arguments: { pattern: 'a', text: 'a', mode: 'nope' } }],
  ['tools/call', { name: 'color-palette', arguments: { color: '#336699', scheme: 'convert' } }],
  ['ping', undefined],
];

describe.each(['2025-11-25', '2025-06-18', '2026-07-28'])('on %s', (era) => {
  it.each(CASES)('%s answers as the SDK does', async (method, params) => {
    const { headers, body } = request(era, method, params);
    const direct = await handler.direct({ headers, body }, caller());
    const sdk = await handler.fetch(
      new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
      caller(),
    );
    const sdkText = sdk.body;
    if (method === 'ping' && era === '2026-07-28') {
      // Not a method of the modern era: the SDK's error, not the hub's.
      expect(direct).toBeNull();
      return;
    }
    expect(direct, `${method} on ${era}: the direct path declined`).not.toBeNull();
    expect(direct!.status).toBe(sdk.status);
    expect(direct!.headers['content-type']).toBe(sdk.headers.get('content-type'));
    expect(messagesOf(direct!.body)).toEqual(messagesOf(sdkText));
  });
});

describe('what the direct path leaves to the SDK', () => {
  const declines: [string, { headers: Record<string, string>; body: unknown }][] = [
    ['an unknown tool', request('2025-11-25', 'tools/call', { name: 'nope', arguments: {} })],
    ['an unknown resource', request('2025-11-25', 'resources/read', { uri: 'toolhub://nope' })],
    [
      'arguments that are no object',
      request('2025-11-25', 'tools/call', { name: 'token-counter', arguments: [1] }),
    ],
    ['a listing cursor', request('2025-11-25', 'tools/list', { cursor: 'x' })],
    ['initialize', request('2025-11-25', 'initialize', { protocolVersion: '2025-11-25' })],
    ['an unsupported revision', request('2024-01-01', 'tools/list')],
  ];
  const noVersion = request('2025-11-25', 'tools/list');
  delete noVersion.headers['mcp-protocol-version'];
  declines.push(['no MCP-Protocol-Version header', noVersion]);
  const mismatched = request('2026-07-28', 'tools/call', { name: 'token-counter', arguments: { text: 'a' } });
  mismatched.headers['mcp-name'] = 'regex-tester';
  declines.push(['an Mcp-Name that is not the body’s', mismatched]);
  const noAccept = request('2025-11-25', 'tools/list');
  noAccept.headers.accept = 'application/json';
  declines.push(['an Accept without text/event-stream', noAccept]);

  const withMeta = request('2025-11-25', 'tools/call', {
    name: 'token-counter',
    arguments: { text: 'a' },
    _meta: { progressToken: 1 },
  });
  declines.push(['a 2025 call with _meta (progress, tasks)', withMeta]);
  for (const [name, change] of [
    ['a fractional id', { id: 1.5 }],
    ['a null id', { id: null }],
    ['a member JSON-RPC does not have', { extra: true }],
    ['jsonrpc other than 2.0', { jsonrpc: '1.0' }],
  ] as const) {
    const odd = request('2025-11-25', 'tools/list');
    declines.push([name, { headers: odd.headers, body: { ...odd.body, ...change } }]);
  }

  it.each(declines)('%s', async (_name, { headers, body }) => {
    expect(await handler.direct({ headers, body }, caller())).toBeNull();
  });
});
