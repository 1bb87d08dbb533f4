/**
 * `npm run new-tool -- <id> --package <dir>`: a publishable tool package that passes its own
 * test, packs with `npm pack` as it is, and, installed beside a hub, is served on its doors.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffoldPackage } from '../scripts/scaffold/scaffold.js';
import { hubVersion } from '../src/registry.js';
import { npm, packAndInstall } from './package-install.js';
import { type Instance, postJson, startInstance, stopInstance } from './server-process.js';

const ID = 'word-tally';
const NAME = `toolhub-tool-${ID}`;
const work = mkdtempSync(join(tmpdir(), 'toolhub-new-package-'));
const dir = join(work, NAME);
const app = join(work, 'app');
let hub: Instance | undefined;

beforeAll(async () => {
  await scaffoldPackage(ID, dir);
}, 60_000);
afterAll(async () => {
  await stopInstance(hub);
  rmSync(work, { recursive: true, force: true });
});

describe('npm run new-tool -- <id> --package <dir>', () => {
  it('writes a package whose manifest fits this hub, with a definition of eight fields at most', async () => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: NAME, type: 'module', files: ['tools/'] });
    expect(pkg.toolhub).toEqual({
      manifest: 1,
      entry: './tools',
      tools: [ID],
      hub: `>=${hubVersion()} <${Number(hubVersion().split('.')[0]) + 1}`,
      needs: { network: false, memoryMb: 64 },
    });
    const definition = await import(pathToFileURL(join(dir, 'tools', ID, 'tool.js')).href);
    expect(Object.keys(definition.default).length).toBeLessThanOrEqual(8);
    expect(readdirSync(join(dir, 'tools', ID, 'examples')).sort()).toEqual([
      'basic.json',
      'edgeCase.json',
      'expectedOutput.json',
    ]);
  });

  it('passes its own test (npm test: node:test, nothing to install)', () => {
    const test = npm(['test'], dir);
    expect(test.status, `${test.stdout}\n${test.stderr}`).toBe(0);
    expect(test.stdout).toMatch(/# pass 3/);
  });

  it('is refused a second time into the same folder, leaving it as it was', async () => {
    const before = readdirSync(dir).sort();
    await expect(scaffoldPackage(ID, dir)).rejects.toThrow(/is not empty/);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('packs as it is, installs, and is served by a hub on its doors', async () => {
    const { tarball } = packAndInstall(dir, NAME, work, app);
    expect(tarball).toBe(`${NAME}-0.1.0.tgz`);
    // The tarball holds the tool, not the package's own test.
    expect(readdirSync(join(app, 'node_modules', NAME)).sort()).toEqual([
      'README.md',
      'package.json',
      'tools',
    ]);
    hub = await startInstance({ TOOL_PACKAGES: NAME, TOOL_PACKAGES_DIR: app });
    const dedicated = await postJson(`${hub.base}/api/${ID}/`, { text: 'one two two', mode: 'unique' });
    expect(dedicated.status).toBe(200);
    expect(dedicated.body).toMatchObject({ result: { mode: 'unique', words: 3, unique: 2 } });
    const client = new Client({ name: 'hub-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${hub.base}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === ID)?.inputSchema.properties).toHaveProperty('text');
    } finally {
      await client.close();
    }
    const page = await fetch(`${hub.base}/tools/${ID}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Word Tally');
  }, 120_000);
});
