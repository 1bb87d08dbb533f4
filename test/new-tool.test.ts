import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffoldTool, withToolListed } from '../scripts/scaffold/scaffold.js';
import { buildApp } from '../src/app.js';
import { readExamples } from '../src/docs/examples.js';
import { generatedDocs } from '../src/docs/generate.js';
import { projectRoot } from '../src/paths.js';
import { scanTools } from '../src/registry.js';
import { wiringRows } from '../src/wiring.js';
import type { TestApp } from './helpers.js';

/**
 * `npm run new-tool` keeps giving a tool the hub accepts as it is: scaffolded into a
 * temporary tools folder (never the project's tools/), it typechecks, it loads, its guide
 * has its generated sections, and its examples run as they say. The folder is inside the
 * package (test-artifacts/, ignored by git), so the new tool's `#tool-kit` imports resolve
 * through the project's package.json as they do in tools/.
 */
/** An id no real tool will take, so the checks below cannot meet a real one. */
const ID = 'scaffold-probe';
const artifacts = join(projectRoot, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const root = mkdtempSync(join(artifacts, 'new-tool-'));
const toolsDir = join(root, 'tools');
const projectTools = () => readdirSync(join(projectRoot, 'tools')).sort();
const before = projectTools();
let app: TestApp;

beforeAll(async () => {
  mkdirSync(toolsDir);
  await scaffoldTool(ID, { toolsDir });
  app = await buildApp({
    logger: false,
    toolsDir,
    env: {
      LOG_LEVEL: 'silent',
      POOL_THREADS: '1',
      QUEUE_WAIT_MS: '30000',
      JUNK_LIMIT: '0',
      // As test/helpers.ts: a loaded CI machine stalls a test process; only the shedding tests shed.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    },
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('npm run new-tool', () => {
  it('writes the tool folder and leaves the project alone', () => {
    const files = ['tool.ts', 'page.ts', 'run.ts', 'run.test.ts', 'SKILL.md', 'examples'];
    expect(readdirSync(join(toolsDir, ID)).sort()).toEqual(files.sort());
    expect(readdirSync(join(toolsDir, ID, 'examples')).sort()).toEqual([
      'basic.json',
      'edgeCase.json',
      'expectedOutput.json',
    ]);
    expect(projectTools()).toEqual(before);
    for (const doc of ['README.md', 'docs/tools.md', 'docs/api.md'])
      expect(readFileSync(join(projectRoot, doc), 'utf8'), doc).not.toContain(ID);
  });

  it("gives a tool whose modules and test typecheck with the project's settings", async () => {
    const tsconfig = join(root, 'tsconfig.json');
    const settings = { extends: join(projectRoot, 'tsconfig.json'), include: ['tools'] };
    writeFileSync(tsconfig, JSON.stringify({ ...settings, compilerOptions: { noEmit: true } }));
    const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    let diagnostics = '';
    try {
      // Asynchronously: the app of this file must not see its event loop stall for seconds.
      await promisify(execFile)(process.execPath, [tsc, '-p', tsconfig], {
        encoding: 'utf8',
        timeout: 50_000,
      });
    } catch (err) {
      diagnostics = String((err as { stdout?: string }).stdout || err);
    }
    expect(diagnostics).toBe('');
  }, 60_000);

  it('writes a definition of eight fields at most, as html-markdown is, in about 60 lines', async () => {
    // What the author writes (docs/writing-a-tool.md); the registry derives the rest.
    const fields = async (path: string) =>
      Object.keys(((await import(pathToFileURL(path).href)) as { default: object }).default);
    const scaffolded = await fields(join(toolsDir, ID, 'tool.ts'));
    expect(scaffolded.length).toBeLessThanOrEqual(8);
    expect(scaffolded).toEqual(
      expect.arrayContaining(['id', 'title', 'description', 'input', 'output', 'policy']),
    );
    const htmlMarkdown = join(projectRoot, 'tools', 'html-markdown', 'tool.ts');
    expect((await fields(htmlMarkdown)).length).toBeLessThanOrEqual(8);
    expect(readFileSync(htmlMarkdown, 'utf8').split('\n').length).toBeLessThanOrEqual(62);
  });

  it('gives a tool the registry loads, with a guide whose generated sections are written', async () => {
    const tools = await scanTools({ toolsDir });
    expect([...tools.keys()]).toEqual([ID]);
    const [skill] = generatedDocs(tools, wiringRows()).filter((d) => d.path.endsWith(`${ID}/SKILL.md`));
    expect(skill!.actual).toBe(skill!.expected);
    expect(skill!.actual).toContain('| `a` | `text` | string | yes |');
    expect(skill!.actual).not.toContain('TODO');
  });

  it('runs its examples as they say, on the generic and the dedicated endpoint', async () => {
    const tool = app.tools.get(ID)!;
    const { basic, edgeCase, expectedOutput } = readExamples(tool.docsDir);
    const res = await app.inject({ method: 'POST', url: '/api/tools/run/', payload: basic });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toEqual(expectedOutput);
    expect(expectedOutput).toMatchObject({ mode: 'count', words: 12, lines: 2 });
    const edge = await app.inject({ method: 'POST', url: '/api/tools/run/', payload: edgeCase.request });
    expect(edge.statusCode).toBe(edgeCase.expect.status);
    expect(edge.json().errorCode).toBe(edgeCase.expect.errorCode);
    const dedicated = await app.inject({ url: `/api/${ID}/?text=one%20two&mode=unique` });
    expect(dedicated.json().result).toMatchObject({ words: 2, unique: 2 });
    const guide = await app.inject({ url: `/skills/${ID}/SKILL.md` });
    expect(guide.body).toContain(`GET|POST /api/${ID}/`);
  });

  it('refuses an id that is malformed, reserved or taken, writing nothing', async () => {
    for (const id of ['Word_Count', 'word--count', 'word-', '9lives', 'tools', ID]) {
      await expect(scaffoldTool(id, { toolsDir }), id).rejects.toThrow();
    }
    expect(readdirSync(toolsDir)).toEqual([ID]);
  });

  it("lists a new built-in tool in package.json's toolhub block, in order, once", () => {
    // In the project's tools/ (never written here) the hub loads only the ids that block lists.
    const text = readFileSync(join(projectRoot, 'package.json'), 'utf8');
    const listed = JSON.parse(withToolListed(text, 'bcd-probe')).toolhub.tools as string[];
    const ids = JSON.parse(text).toolhub.tools as string[];
    expect(listed).toEqual([...ids, 'bcd-probe'].sort());
    expect(withToolListed(withToolListed(text, 'bcd-probe'), 'bcd-probe')).toBe(
      withToolListed(text, 'bcd-probe'),
    );
    // Nothing else of package.json changes.
    const { toolhub: _, ...rest } = JSON.parse(withToolListed(text, 'bcd-probe'));
    const { toolhub: __, ...restBefore } = JSON.parse(text);
    expect(rest).toEqual(restBefore);
    // An id already listed leaves the file as it is, byte for byte (npm's own layout).
    expect(withToolListed(text, ids[0]!)).toBe(text);
  });
});
