/**
 * A tool package (docs/tool-packages.md) as an operator installs it: the example package
 * (examples/toolhub-tool-uuid/) packed with `npm pack`, installed with npm into a folder of
 * its own, and the built server (dist/) started with TOOL_PACKAGES and TOOL_PACKAGES_DIR.
 * Its tool is then on every door, like a built-in one.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.js';
import { packAndInstall } from './package-install.js';
import { type Instance, serverJs, startInstance, stopInstance } from './server-process.js';

const EXAMPLE = join(projectRoot, 'examples', 'toolhub-tool-uuid');
const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const work = mkdtempSync(join(tmpdir(), 'toolhub-package-'));
/** The operator's folder of packages (TOOL_PACKAGES_DIR). */
const app = join(work, 'app');
/** How the package got there: `npm install --offline`, or the tarball extracted when npm refused. */
let installedWith = '';
let hub: Instance | undefined;

beforeAll(async () => {
  const installed = packAndInstall(EXAMPLE, 'toolhub-tool-uuid', work, app);
  expect(installed.tarball).toBe('toolhub-tool-uuid-1.0.0.tgz');
  installedWith = installed.installedWith;
  hub = await startInstance({ TOOL_PACKAGES: 'toolhub-tool-uuid', TOOL_PACKAGES_DIR: app });
}, 120_000);

afterAll(async () => {
  await stopInstance(hub);
  rmSync(work, { recursive: true, force: true });
});

/** What the run doors answer, as far as these tests read it. */
interface Answer {
  ok: boolean;
  errorCode?: string;
  error?: string;
  result: { version: string; uuids: string[]; output?: string };
  runtime: Record<string, unknown>;
  results: Answer[];
}

const url = (path: string) => `${hub!.base}${path}`;
async function post(path: string, body: unknown) {
  const res = await fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

describe('a tool package installed with npm, on every door', () => {
  it('is installed from the packed tarball', () => {
    // The pack holds what the manifest names (package.json "files"): npm or tar put it there.
    expect(['npm install --offline', 'tar']).toContain(installedWith);
    const files = readdirSync(join(app, 'node_modules', 'toolhub-tool-uuid', 'tools', 'uuid')).sort();
    expect(files).toEqual(['SKILL.md', 'examples', 'page.js', 'run.js', 'tool.js']);
  });

  it('runs on the generic runtime and its dedicated route', async () => {
    const generic = await post('/api/tools/run/', { toolId: 'uuid', input: { a: 3, mode: 'v7' } });
    expect(generic.status).toBe(200);
    expect(generic.body.result.version).toBe('v7');
    const v7s = generic.body.result.uuids;
    expect(v7s).toHaveLength(3);
    for (const id of v7s) expect(id).toMatch(V7);
    expect([...v7s].sort()).toEqual(v7s);
    expect(generic.body.runtime).toMatchObject({ toolId: 'uuid', surface: 'runtime', mode: 'v7' });

    const dedicated = await post('/api/uuid/', { version: 'v4', count: 2 });
    expect(dedicated.status).toBe(200);
    expect(dedicated.body.result.uuids).toHaveLength(2);
    for (const id of dedicated.body.result.uuids) expect(id).toMatch(V4);
    const get = await fetch(url('/api/uuid/'));
    expect(get.status).toBe(200);
    expect(((await get.json()) as { result: { uuids: string[] } }).result.uuids[0]).toMatch(V4);

    // Its schema is checked like a built-in tool's.
    const tooMany = await post('/api/uuid/', { count: 101 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errorCode).toBe('INVALID_INPUT');
  });

  it("answers its own refusals with their code, though it cannot import the hub's error class", async () => {
    const at = '2026-01-01T00:00:00Z';
    const v7 = await post('/api/uuid/', { version: 'v7', at });
    expect(v7.status).toBe(200);
    // The first 48 bits are the time given.
    expect(Number.parseInt(v7.body.result.uuids[0]!.replace('-', '').slice(0, 12), 16)).toBe(Date.parse(at));
    const v4 = await post('/api/uuid/', { version: 'v4', at });
    expect(v4.status).toBe(400);
    expect(v4.body).toMatchObject({ errorCode: 'INVALID_INPUT', error: 'at applies to version v7 only' });
    const generic = await post('/api/tools/run/', {
      toolId: 'uuid',
      input: { a: 1, mode: 'v7', options: { at: '1960-01-01T00:00:00Z' } },
    });
    expect(generic.status).toBe(400);
    expect(generic.body.error).toMatch(/outside what a UUID v7 can hold/);
  });

  it('runs in a batch request beside a built-in tool', async () => {
    const batch = await post('/api/tools/batch/', {
      runs: [
        { toolId: 'uuid', input: { a: 2, mode: 'v7' } },
        { toolId: 'html-markdown', a: '<b>x</b>' },
      ],
    });
    expect(batch.status).toBe(200);
    const [uuid, html] = batch.body.results;
    expect(uuid).toMatchObject({ ok: true, runtime: { surface: 'batch', toolId: 'uuid' } });
    expect(uuid!.result.uuids).toHaveLength(2);
    expect(html).toMatchObject({ ok: true, result: { output: '**x**' } });
  });

  it('is an MCP tool: tools/list and tools/call', async () => {
    const client = new Client({ name: 'hub-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url('/mcp'))));
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'uuid');
      expect(tool?.inputSchema.properties).toHaveProperty('count');
      expect(tool?.inputSchema.properties).toHaveProperty('version');
      const call = await client.callTool({ name: 'uuid', arguments: { version: 'v7', count: 2 } });
      expect(call.isError).toBeFalsy();
      const result = call.structuredContent as { version: string; uuids: string[] };
      expect(result.version).toBe('v7');
      for (const id of result.uuids) expect(id).toMatch(V7);
    } finally {
      await client.close();
    }
  });

  it('is in the skills index, with its own SKILL.md, and in the OpenAPI document', async () => {
    const index = (await (await fetch(url('/api/skills-index.json'))).json()) as {
      tools: { toolId: string }[];
      toolCount: number;
    };
    expect(index.tools.map((t) => t.toolId)).toContain('uuid');
    expect(index.toolCount).toBe(13);
    const skill = await fetch(url('/skills/uuid/SKILL.md'));
    expect(skill.status).toBe(200);
    // The package's own guide, not one made from the definition.
    expect(await skill.text()).toContain('This tool comes from the tool package `toolhub-tool-uuid`');
    const openapi = (await (await fetch(url('/api/openapi.json'))).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(openapi.paths)).toContain('/api/uuid/');
  });

  it('has its page', async () => {
    const page = await fetch(url('/tools/uuid/'));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('UUID Generator');
  });

  it('is counted in /metrics and /api/usage after a run', async () => {
    expect((await post('/api/uuid/', { version: 'v4' })).status).toBe(200);
    const scrape = await (await fetch(url('/metrics'))).text();
    expect(scrape).toMatch(/^toolhub_runs_total\{[^}]*tool="uuid"[^}]*\} [1-9]/m);
    const usage = (await (await fetch(url('/api/usage'))).json()) as {
      tools: Record<string, { rate: { limit: number; used: number } }>;
    };
    expect(usage.tools.uuid?.rate.limit).toBe(120);
    expect(usage.tools.uuid?.rate.used).toBeGreaterThan(0);
  });
});

describe('a package the hub cannot load', () => {
  it('stops the boot: exit 1 and one line naming the package and the field', () => {
    const boot = spawnSync(process.execPath, [serverJs], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        TOOL_PACKAGES: 'toolhub-tool-uuid,toolhub-not-installed',
        TOOL_PACKAGES_DIR: app,
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(boot.status).toBe(1);
    expect(boot.stderr).toBe(
      `tool-hub: tool package 'toolhub-not-installed': not found from ${app} (TOOL_PACKAGES_DIR)\n`,
    );
  });
});
