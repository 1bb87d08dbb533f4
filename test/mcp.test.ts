/**
 * The MCP endpoint over real HTTP, driven by the official SDK client against a started
 * server (the built dist/), on every protocol revision the hub speaks.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExamples, stableResult } from '../src/docs/examples.js';
import { scanTools } from '../src/registry.js';
import { mcpMessage, policyFile, REDIS_URL, redisPrefix, requireRedis } from './helpers.js';
import { basicArguments } from './mcp-examples.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

let hub: Instance | undefined;
beforeAll(async () => {
  const file = await policyFile({
    tools: { 'regex-tester': { timeoutMs: 300 }, 'color-palette': { limit: 2, burst: 1 } },
  });
  hub = await startInstance({ POLICY_FILE: file });
});
afterAll(async () => {
  await stopInstance(hub);
});

async function connect(mode?: 'auto' | { pin: string }): Promise<Client> {
  const client = new Client(
    { name: 'hub-test', version: '1.0.0' },
    mode ? { versionNegotiation: { mode } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${hub!.base}/mcp`)));
  return client;
}

/** A JSON-RPC request by hand, for what the SDK client does not send. */
async function rpc(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${hub!.base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: parseAnswer(await res.text()) };
}

interface RpcAnswer {
  result?: { protocolVersion?: string; tools?: unknown[] };
  error?: { code?: number };
}

/** A JSON answer, or the first message of an SSE answer (2025-era requests are answered so). */
function parseAnswer(text: string): RpcAnswer | null {
  const data = mcpMessage(text);
  try {
    return data ? JSON.parse(data) : null;
  } catch {
    return null;
  }
}

describe.each([
  ['2025-11-25 (initialize handshake)', undefined],
  ['2026-07-28 (discover, pinned)', { pin: '2026-07-28' }],
] as const)('MCP on %s', (_name, mode) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(mode);
  });
  afterAll(async () => {
    await client.close();
  });

  it('lists every tool with its schemas and read-only annotations', async () => {
    const { tools } = await client.listTools();
    const catalogue = (await (await fetch(`${hub!.base}/api/skills-index.json`)).json()) as {
      tools: { toolId: string }[];
    };
    expect(tools.map((t) => t.name)).toEqual(catalogue.tools.map((t) => t.toolId).sort());
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(Object.keys(tool.inputSchema.properties ?? {}).length).toBeGreaterThan(1);
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
  });

  it('runs a tool: structuredContent, the same JSON as text, and the runtime block in _meta', async () => {
    const result = await client.callTool({
      name: 'token-counter',
      arguments: { text: 'hello world', model: 'gpt-4o' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ tokens: 2, encoding: 'o200k_base' });
    const text = (result.content as { type: string; text: string }[])[0]!;
    expect(JSON.parse(text.text)).toEqual(result.structuredContent);
    expect(result._meta?.runtime).toMatchObject({ toolId: 'token-counter', surface: 'mcp', source: 'mcp' });
  });

  it('answers a refused call as an isError result carrying its errorCode', async () => {
    const bad = await client.callTool({
      name: 'regex-tester',
      arguments: { pattern: 'a', text: 'a', mode: 'nope' },
    });
    expect(bad.isError).toBe(true);
    // No structuredContent on an error: clients check it against the outputSchema.
    expect(bad.structuredContent).toBeUndefined();
    expect(bad._meta?.error).toMatchObject({ ok: false, errorCode: 'UNSUPPORTED_OPTION' });
    const text = (bad.content as { type: string; text: string }[])[0]!;
    expect(JSON.parse(text.text)).toEqual(bad._meta?.error);
  });
});

describe('every tool over MCP', () => {
  it('answers its basic example exactly as over HTTP (expectedOutput.json)', async () => {
    const tools = await scanTools();
    const client = await connect();
    try {
      for (const { def, docsDir } of tools.values()) {
        const { expectedOutput } = readExamples(docsDir);
        const { args } = basicArguments(def, docsDir);
        const result = await client.callTool({ name: def.id, arguments: args });
        expect(result.isError, `${def.id}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
        expect(stableResult(def, result.structuredContent as Record<string, unknown>), def.id).toEqual(
          stableResult(def, expectedOutput),
        );
      }
    } finally {
      await client.close();
    }
  });
});

describe('MCP refusals an agent must recognise', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(async () => {
    await client.close();
  });

  it('TIMEOUT for a runaway regex', async () => {
    const evil = `${'a'.repeat(40)}!`;
    const result = await client.callTool({
      name: 'regex-tester',
      arguments: { pattern: '^(a|a)+$', text: evil, flags: 'u', mode: 'test' },
    });
    expect(result.isError).toBe(true);
    expect(result._meta?.error).toMatchObject({ errorCode: 'TIMEOUT' });
  });

  it('RATE_LIMITED with retryAfterSec and the rateLimit block once the limit is spent', async () => {
    // color-palette's mode field is `scheme` (its dedicated endpoint's name for it).
    const call = () =>
      client.callTool({ name: 'color-palette', arguments: { color: '#336699', scheme: 'convert' } });
    // limit 2 + burst 1 a window (other tests of this file may have spent some of it).
    const results = [];
    for (let i = 0; i < 4; i++) {
      const result = await call();
      results.push(result);
      if (result.isError) break;
    }
    const refused = results.at(-1)!;
    expect(results.length).toBeLessThanOrEqual(4);
    expect(refused.isError).toBe(true);
    expect(refused._meta?.error).toMatchObject({
      errorCode: 'RATE_LIMITED',
      rateLimit: { limit: 2, burst: 1, remaining: 0 },
    });
    expect((refused._meta!.error as { retryAfterSec: number }).retryAfterSec).toBeGreaterThan(0);
  });

  it('an unknown tool is a JSON-RPC error', async () => {
    await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe('MCP over HTTP, as the spec says for a stateless server', () => {
  it('speaks 2025-06-18 when a client asks for it', async () => {
    const init = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.body?.result?.protocolVersion).toBe('2025-06-18');
    const list = await rpc(
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    expect(list.body?.result?.tools?.length).toBeGreaterThan(0);
  });

  it('answers GET, DELETE and PUT with 405 and Allow: POST, a malformed body with a parse error', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await fetch(`${hub!.base}/mcp`, {
        method,
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
    const malformed = await rpc('{"jsonrpc":');
    expect(malformed.body?.error?.code).toBe(-32700);
  });

  it('refuses a foreign Host or Origin (DNS-rebinding protection)', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await rpc(body, { origin: 'http://evil.example' })).status).toBe(403);
  });

  it('lists and reads the agent guides as resources', async () => {
    const client = await connect();
    try {
      const { resources } = await client.listResources();
      const uris = resources.map((r) => r.uri);
      expect(uris).toContain('toolhub://skills/regex-tester/SKILL.md');
      expect(uris).toContain('toolhub://skills/common/error-handling.md');
      expect(uris).toContain('toolhub://examples/regex-tester/basic.json');
      const skill = await client.readResource({ uri: 'toolhub://skills/regex-tester/SKILL.md' });
      expect(skill.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
      expect(String((skill.contents[0] as { text: string }).text)).toMatch(/^name: regex-tester$/m);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('toolhub://skills/{toolId}/SKILL.md');
      const example = await client.readResource({ uri: 'toolhub://examples/regex-tester/basic.json' });
      expect(JSON.parse((example.contents[0] as { text: string }).text)).toMatchObject({
        toolId: 'regex-tester',
      });
    } finally {
      await client.close();
    }
  });

  it('counts MCP runs in the metrics by source', async () => {
    const text = await (await fetch(`${hub!.base}/metrics`)).text();
    expect(text).toMatch(
      /toolhub_runs_total\{tool="token-counter",surface="mcp",source="mcp",outcome="ok"\} [1-9]/,
    );
  });
});

describe('MCP on two replicas sharing Redis', () => {
  it('keeps one client within limit + burst across both', async () => {
    await requireRedis();
    const file = await policyFile({ tools: { 'color-palette': { limit: 2, burst: 1 } } });
    const env = { REDIS_URL, REDIS_PREFIX: redisPrefix(), POLICY_FILE: file };
    const replicas = await Promise.all([startInstance(env), startInstance(env)]);
    const clients: Client[] = [];
    try {
      for (const replica of replicas) {
        const client = new Client({ name: 'hub-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${replica.base}/mcp`)));
        clients.push(client);
      }
      const outcomes: string[] = [];
      for (let i = 0; i < 6; i++) {
        const result = await clients[i % 2]!.callTool({
          name: 'color-palette',
          arguments: { color: '#336699', scheme: 'convert' },
        });
        outcomes.push(
          result.isError ? String((result._meta!.error as { errorCode: string }).errorCode) : 'ok',
        );
      }
      expect(outcomes).toEqual(['ok', 'ok', 'ok', 'RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED']);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(replicas.map((r) => stopInstance(r)));
    }
    // Two hub processes booting at once: past 30 s at load 10 on two cores (a loaded-proof run).
  }, 120_000);
});
