/**
 * The MCP door with the real clients (issue 19): the 1.x SDK (`@modelcontextprotocol/sdk`,
 * the widely deployed one) and the 2.x client (`@modelcontextprotocol/client`), each against
 * a started server (the built dist/). Every tool answers its basic example as its REST
 * endpoint does, and within its outputSchema; refusals come back as isError results whose
 * errorCode a program reads in `_meta.error` and a model in the text block, never as a
 * thrown error (the 1.x client validates `structuredContent` against the outputSchema
 * whenever it is present, so a refusal must not carry one).
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Ajv, ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownAjv } from '../src/ajv.js';
import { stableResult } from '../src/docs/examples.js';
import { modeArgument } from '../src/mcp/tools.js';
import { scanTools } from '../src/registry.js';
import type { ToolSpec } from '../src/shared/tool-def.js';
import { fieldsFor } from '../src/shared/tool-def.js';
import { policyFile } from './helpers.js';
import { basicArguments } from './mcp-examples.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

// ajv-formats is CommonJS with a default export; under NodeNext the callable is `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;

/** What a tools/call answers, as far as these tests read it. */
interface CallResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

/** The part of either SDK's client these tests use. */
interface McpClient {
  listTools(): Promise<{ tools: { name: string; outputSchema?: object }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<CallResult>;
  close(): Promise<void>;
}

const info = { name: 'hub-clients-test', version: '1.0.0' };

const CLIENTS: [string, (url: URL) => Promise<McpClient>][] = [
  [
    '1.x @modelcontextprotocol/sdk',
    async (url) => {
      const client = new ClientV1(info);
      await client.connect(new TransportV1(url));
      return client as unknown as McpClient;
    },
  ],
  [
    '2.x @modelcontextprotocol/client',
    async (url) => {
      const client = new ClientV2(info);
      await client.connect(new TransportV2(url));
      return client as unknown as McpClient;
    },
  ],
];

const tools = [...(await scanTools()).values()].map(({ def, docsDir }) => ({ def, docsDir }));

/** The same input on the tool's dedicated endpoint (the path of the mode, or the mode field). */
async function restResult(
  base: string,
  def: ToolSpec,
  mode: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const endpoint =
    def.endpoints.find((e) => e.mode === mode) ??
    def.endpoints.find((e) => !e.mode && (e.modes ?? def.modes).includes(mode));
  if (!endpoint) throw new Error(`${def.id}: no endpoint takes mode ${mode}`);
  const body = { ...args };
  delete body[modeArgument(def)];
  if (!endpoint.mode) body[def.modeField!] = mode;
  const res = await fetch(`${base}${endpoint.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { ok: boolean; result: Record<string, unknown> };
  expect(answer.ok, `${def.id} over REST: ${JSON.stringify(answer)}`).toBe(true);
  return answer.result;
}

interface ToolRunError {
  ok: false;
  error: string;
  errorCode: string;
  retryAfterSec?: number;
  rateLimit?: Record<string, number>;
}

/** A refusal as both readers see it: `_meta.error` (a program) and the text block's JSON (a model), the same. */
function refusalOf(result: CallResult, what: string): ToolRunError {
  expect(result.isError, `${what}: ${JSON.stringify(result)}`).toBe(true);
  expect(result.structuredContent, what).toBeUndefined();
  const meta = result._meta?.error as ToolRunError | undefined;
  const content = result.content as { type: string; text: string }[];
  expect(content[0]?.type, what).toBe('text');
  expect(meta, what).toMatchObject({ ok: false, errorCode: expect.any(String), error: expect.any(String) });
  expect(JSON.parse(content[0]!.text), what).toEqual(meta);
  return meta!;
}

describe.each(CLIENTS)('MCP with the %s client', (_name, connect) => {
  /** Default policies: the basic examples and the refusals that spend no limit. */
  let hub: Instance | undefined;
  /** A tiny rate limit and a short deadline, so that the other runs never meet them. */
  let limited: Instance | undefined;
  let client: McpClient;
  let limitedClient: McpClient;
  const outputValidators = new Map<string, ValidateFunction>();

  beforeAll(async () => {
    const file = await policyFile({
      tools: {
        'color-palette': { limit: 2, burst: 1, windowSec: 3600 },
        'regex-tester': { timeoutMs: 300 },
      },
    });
    const started = await Promise.allSettled([startInstance({}), startInstance({ POLICY_FILE: file })]);
    [hub, limited] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      await Promise.all([stopInstance(hub), stopInstance(limited)]);
      throw failed.reason;
    }
    client = await connect(new URL(`${hub!.base}/mcp`));
    limitedClient = await connect(new URL(`${limited!.base}/mcp`));
    // tools/list first, as an agent does: the 1.x client then checks every structuredContent
    // against the listed outputSchema itself.
    const ajv = ownAjv({ allErrors: true });
    addFormats(ajv);
    for (const tool of (await client.listTools()).tools) {
      if (tool.outputSchema) outputValidators.set(tool.name, ajv.compile(tool.outputSchema));
    }
    await limitedClient.listTools();
  });
  afterAll(async () => {
    try {
      await client?.close();
      await limitedClient?.close();
    } finally {
      await stopInstance(hub);
      await stopInstance(limited);
    }
  });

  it('lists an outputSchema for every tool', () => {
    expect([...outputValidators.keys()].sort()).toEqual(tools.map((t) => t.def.id).sort());
  });

  describe.each(tools)('$def.id', ({ def, docsDir }) => {
    it('answers its basic example as its REST endpoint does, within its outputSchema', async () => {
      const { mode, args } = basicArguments(def, docsDir);
      const result = await client.callTool({ name: def.id, arguments: args });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      const structured = result.structuredContent as Record<string, unknown>;
      const text = (result.content as { type: string; text: string }[])[0]!;
      expect(JSON.parse(text.text)).toEqual(structured);
      const validate = outputValidators.get(def.id)!;
      expect(validate(structured), JSON.stringify(validate.errors)).toBe(true);
      const rest = await restResult(hub!.base, def, mode, args);
      expect(stableResult(def, structured)).toEqual(stableResult(def, rest));
    });

    it('refuses an unknown mode (UNSUPPORTED_OPTION) and an unknown argument (INVALID_INPUT)', async () => {
      const { args } = basicArguments(def, docsDir);
      const mode = await client.callTool({
        name: def.id,
        arguments: { ...args, [modeArgument(def)]: 'no-such-mode' },
      });
      expect(refusalOf(mode, 'unknown mode')).toMatchObject({
        errorCode: 'UNSUPPORTED_OPTION',
        error: expect.stringContaining('no-such-mode'),
      });
      const unknown = await client.callTool({ name: def.id, arguments: { ...args, noSuchArgument: 'x' } });
      expect(refusalOf(unknown, 'unknown argument')).toMatchObject({
        errorCode: 'INVALID_INPUT',
        error: expect.stringContaining('noSuchArgument'),
      });
    });

    it('refuses an input over its inputMaxBytes (INPUT_TOO_LARGE)', async () => {
      const { mode, args } = basicArguments(def, docsDir);
      const field = fieldsFor(def, mode).a!;
      // Well under the HTTP body cap (BODY_LIMIT_BYTES, 4 MiB by default): the hub's own check answers.
      expect(def.policy.inputMaxBytes).toBeLessThan(2 * 1024 * 1024);
      const big = 'x'.repeat(def.policy.inputMaxBytes + 1);
      const result = await client.callTool({ name: def.id, arguments: { ...args, [field]: big } });
      const refusal = refusalOf(result, 'over size');
      expect(refusal.errorCode).toBe('INPUT_TOO_LARGE');
      expect(refusal.error).toContain(String(def.policy.inputMaxBytes));
    });
  });

  it('refuses a wrong-typed argument (INVALID_INPUT)', async () => {
    const result = await client.callTool({
      name: 'token-counter',
      arguments: { text: 'hello', limit: { not: 'a number' } },
    });
    const refusal = refusalOf(result, 'wrong type');
    expect(refusal.errorCode).toBe('INVALID_INPUT');
    expect(refusal.error).toMatch(/limit .*must be integer/);
  });

  it('refuses a runaway regex (TIMEOUT)', async () => {
    const result = await limitedClient.callTool({
      name: 'regex-tester',
      arguments: { pattern: '^(a|a)+$', text: `${'a'.repeat(40)}!`, flags: 'u', mode: 'test' },
    });
    expect(refusalOf(result, 'runaway regex').errorCode).toBe('TIMEOUT');
  });

  it('refuses a call past the rate limit (RATE_LIMITED, retryAfterSec, rateLimit)', async () => {
    // limit 2 + burst 1 in an hour on a hub of its own: three runs, then the refusal.
    const outcomes: string[] = [];
    let refused: CallResult | undefined;
    for (let i = 0; i < 4 && !refused; i++) {
      const result = await limitedClient.callTool({
        name: 'color-palette',
        arguments: { color: '#336699', scheme: 'convert' },
      });
      if (result.isError) refused = result;
      outcomes.push(result.isError ? 'refused' : 'ok');
    }
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'refused']);
    const refusal = refusalOf(refused!, 'rate limited');
    expect(refusal).toMatchObject({
      errorCode: 'RATE_LIMITED',
      rateLimit: { limit: 2, burst: 1, remaining: 0 },
    });
    expect(refusal.retryAfterSec).toBeGreaterThan(0);
  });
});
