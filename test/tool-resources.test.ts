/**
 * A package's tools held to what their manifest asks for and the operator allows
 * (docs/tool-packages.md, "What a package needs"): a memory hog with a 32 MB cap is stopped
 * with BUDGET_EXCEEDED, reason memory, in its own pool group while token counts keep
 * answering; a tool reaches the network only when its manifest asks for it and TOOL_NETWORK
 * names it. A real hub process, real worker threads, a real loopback server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, postJson, startInstance, stopInstance } from './server-process.js';

const work = mkdtempSync(join(tmpdir(), 'toolhub-resources-'));
let hub: Instance | undefined;
let site: Server | undefined;
let sitePort = 0;

/** Its one input field is required, so the generic slot `a` carries it. */
const definition = (id: string, field: string) => `export default {
  id: '${id}', title: 'Fixture ${id}', description: 'Test-only package tool',
  input: { type: 'object', properties: { ${field} }, required: ['${field.split(':')[0]}'], additionalProperties: false },
  output: { type: 'object', additionalProperties: true },
  policy: { limit: 100000, burst: 0, timeoutMs: 20000 },
};
`;
const FETCH_RUN = `export default async (input) => {
  const res = await fetch('http://127.0.0.1:' + input.port + '/');
  return { status: res.status, body: await res.text() };
};
`;
const PORT_FIELD = "port: { type: 'integer', description: 'the loopback port' }";

/** A package in the app's node_modules with one tool and what it needs. */
function writePackage(name: string, id: string, needs: object, run: string, input: string): void {
  const root = join(work, 'app', 'node_modules', name);
  mkdirSync(join(root, 'tools', id), { recursive: true });
  const toolhub = { manifest: 1, entry: './tools', tools: [id], hub: '>=1.0.0 <2', needs };
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', type: 'module', toolhub }),
  );
  writeFileSync(join(root, 'tools', id, 'tool.js'), definition(id, input));
  writeFileSync(join(root, 'tools', id, 'run.js'), run);
}

beforeAll(async () => {
  site = createServer((_req, res) => res.end('hello from loopback'));
  await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
  writePackage(
    'pk-hog',
    'fx-hog',
    { memoryMb: 32 },
    'export default () => { const kept = []; for (;;) kept.push(new Array(1e5).fill(Math.random())); };\n',
    "n: { type: 'integer', description: 'unused' }",
  );
  const policyFile = join(work, 'policy.json');
  writeFileSync(policyFile, JSON.stringify({ tools: { 'token-counter': { limit: 100000, burst: 0 } } }));
  writePackage('pk-net', 'fx-net', { network: true }, FETCH_RUN, PORT_FIELD);
  writePackage('pk-net-denied', 'fx-net-denied', { network: true }, FETCH_RUN, PORT_FIELD);
  writePackage('pk-net-unasked', 'fx-net-unasked', {}, FETCH_RUN, PORT_FIELD);
  hub = await startInstance({
    TOOL_PACKAGES: 'pk-hog,pk-net,pk-net-denied,pk-net-unasked',
    TOOL_PACKAGES_DIR: join(work, 'app'),
    TOOL_NETWORK: 'fx-net,fx-net-unasked',
    // Token counts in a stream: past token-counter's default rate limit.
    POLICY_FILE: policyFile,
    POOL_THREADS: '1',
  });
}, 120_000);

afterAll(async () => {
  await stopInstance(hub);
  await new Promise((resolve) => site?.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

const count = (text: string) => postJson(`${hub!.base}/api/token-counter/`, { text, model: 'gpt-4o' });

/** Token counts, `n` of them in a row; their latencies, sorted. */
async function tokenCounts(n: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await count(`the quick brown fox ${i}`);
    expect(res.status).toBe(200);
    ms.push(res.ms);
  }
  return ms.sort((a, b) => a - b);
}
const p99 = (sorted: number[]) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;

describe('a memory cap per tool', () => {
  it('stops a run past its cap with BUDGET_EXCEEDED, reason memory, while token counts keep answering', async () => {
    await tokenCounts(20); // the tokenizer's tables load on the first runs: not part of the measure
    const quiet = await tokenCounts(100);
    // Hogs one after another for as long as the token counts last: each fills its 32 MB and is stopped.
    let counting = true;
    const hogLoop = (async () => {
      const answers = [];
      while (counting) answers.push(await postJson(`${hub!.base}/api/fx-hog/`, { n: 1 }));
      return answers;
    })();
    // Every token count beside the hogs answers 200 (tokenCounts asserts each).
    const during = await tokenCounts(200).finally(() => {
      counting = false;
    });
    const hogs = await hogLoop;
    expect(hogs.length).toBeGreaterThan(0);
    for (const hog of hogs) {
      expect(hog.status).toBe(429);
      expect(hog.body).toMatchObject({
        errorCode: 'BUDGET_EXCEEDED',
        reason: 'memory',
        error: expect.stringContaining('memory cap of 32 MB'),
      });
    }
    // The hog's worker was replaced; its group serves again.
    const again = await postJson(`${hub!.base}/api/fx-hog/`, { n: 1 });
    expect(again.body).toMatchObject({ errorCode: 'BUDGET_EXCEEDED', reason: 'memory' });
    // Measured, not asserted (a loaded machine moves latencies): docs/tool-packages.md quotes them.
    console.log(
      `token-counter p99: ${p99(quiet).toFixed(1)} ms alone, ${p99(during).toFixed(1)} ms beside ${hogs.length} hog runs, all stopped at their cap`,
    );
  }, 120_000);

  it('gives the same code and reason on the batch and MCP doors', async () => {
    const batch = await postJson(`${hub!.base}/api/tools/batch/`, {
      runs: [
        { toolId: 'fx-hog', a: '1' },
        { toolId: 'token-counter', a: 'still here' },
      ],
    });
    const [hog, count] = batch.body.results as Record<string, unknown>[];
    expect(hog).toMatchObject({ ok: false, errorCode: 'BUDGET_EXCEEDED', reason: 'memory' });
    expect(count).toMatchObject({ ok: true });
    const client = new Client({ name: 'hub-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${hub!.base}/mcp`)));
    try {
      const call = await client.callTool({ name: 'fx-hog', arguments: { n: 1 } });
      expect(call.isError).toBe(true);
      expect(call._meta?.error).toMatchObject({ errorCode: 'BUDGET_EXCEEDED', reason: 'memory' });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('says the cap and the network in the tool descriptor', async () => {
    const res = await fetch(`${hub!.base}/api/tools/fx-hog.json`);
    const descriptor = JSON.stringify(await res.json());
    expect(descriptor).toContain('"memoryMb":32');
    const net = JSON.stringify(await (await fetch(`${hub!.base}/api/tools/fx-net.json`)).json());
    expect(net).toContain('"networkEnabled":true');
    const builtIn = JSON.stringify(await (await fetch(`${hub!.base}/api/tools/token-counter.json`)).json());
    expect(builtIn).toContain('"networkEnabled":false');
    expect(builtIn).toContain('"memoryMb":256');
  });
});

describe('the network, only where the manifest asks and the operator allows', () => {
  it('reaches a loopback server from a tool that asks for it and TOOL_NETWORK names', async () => {
    const res = await postJson(`${hub!.base}/api/fx-net/`, { port: sitePort });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: { status: 200, body: 'hello from loopback' } });
  });

  it('refuses it, reason network, where either is missing, and says so at boot', async () => {
    for (const id of ['fx-net-denied', 'fx-net-unasked']) {
      const res = await postJson(`${hub!.base}/api/${id}/`, { port: sitePort });
      expect(res.status, id).toBe(500);
      expect(res.body, id).toMatchObject({ errorCode: 'INTERNAL_ERROR', reason: 'network' });
      expect(String(res.body.error)).toMatch(/toolhub\.needs\.network.*TOOL_NETWORK/);
    }
    const log = hub!.stdout();
    expect(log).toContain(
      'tool fx-net-denied asks for the network (toolhub.needs.network); TOOL_NETWORK does not name it',
    );
    expect(log).toContain('TOOL_NETWORK names fx-net-unasked, whose manifest does not ask for the network');
  });
});
