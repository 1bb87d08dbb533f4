import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generatedDocs, writeDocs } from '../../src/docs/generate.js';
import { toolsDir as builtInToolsDir, projectRoot } from '../../src/paths.js';
import { hubVersion, scanTools } from '../../src/registry.js';
import { wiringRows } from '../../src/wiring.js';
import { writeExpectedOutputs } from '../write-examples.js';
import { examples, skillMd } from './docs-template.js';
import { packageJson, readmeMd, runTestJs } from './package-template.js';
import { pageTs, runTestTs, runTs, toolTs } from './tool-template.js';

/**
 * A tool id: lower case words joined by single hyphens. The registry accepts more
 * (`^[a-z][a-z0-9-]*$`), but a trailing or doubled hyphen makes odd schema names.
 */
export const TOOL_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** Ids that would shadow the hub's own paths (/api/tools/..., /skills/common/...). */
const RESERVED = new Set(['tools', 'common']);

export interface ScaffoldOptions {
  /** The folder of tool folders (default: the project's tools/). */
  toolsDir?: string;
}

export interface Scaffolded {
  folder: string;
  /** The files written in the tool's folder. */
  created: string[];
  /** The files the docs and examples generators rewrote. */
  regenerated: string[];
}

/** "word-count" → "Word Count". */
export function toolName(id: string): string {
  return id
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** Refuses an id that is malformed, reserved or taken (a folder, a tool or its endpoint). */
export async function checkNewId(id: string, toolsDir: string): Promise<void> {
  if (!TOOL_ID.test(id))
    throw new Error(`'${id}' is not a tool id: lower case letters and digits, words joined by '-'`);
  if (RESERVED.has(id)) throw new Error(`'${id}' is reserved by the hub's own paths`);
  if (existsSync(join(toolsDir, id))) throw new Error(`${join(toolsDir, id)} exists already`);
  for (const { def } of (await scanFolder(toolsDir)).values()) {
    if (def.id === id || def.endpoints.some((e) => e.path.startsWith(`/api/${id}/`)))
      throw new Error(`'${id}' is taken by the tool ${def.id}`);
  }
}

/**
 * Writes tools/<id>/ (tool.ts, run.ts, run.test.ts, SKILL.md, examples/), then really runs
 * its basic example into expectedOutput.json and fills the generated sections: of every
 * project document when the folder is the project's tools/, of its SKILL.md only otherwise.
 * On a failure after writing, the folder is removed so the command can be run again.
 */
export async function scaffoldTool(id: string, options: ScaffoldOptions = {}): Promise<Scaffolded> {
  const toolsDir = resolve(options.toolsDir ?? builtInToolsDir);
  await checkNewId(id, toolsDir);
  const folder = join(toolsDir, id);
  const name = toolName(id);
  const files: Record<string, string> = {
    'tool.ts': toolTs(id, name),
    'page.ts': pageTs(id),
    'run.ts': runTs(id),
    'run.test.ts': runTestTs(id),
    ...docFiles(id, name),
  };
  mkdirSync(join(folder, 'examples'), { recursive: true });
  const builtIn = toolsDir === resolve(builtInToolsDir);
  const packageJson = join(projectRoot, 'package.json');
  const packageText = readFileSync(packageJson, 'utf8');
  try {
    for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
    format(folder);
    // The hub loads the built-in tools its package.json's toolhub block names (docs/tool-packages.md).
    if (builtIn) writeFileSync(packageJson, withToolListed(packageText, id));
    const regenerated = await writeExpectedOutputs({ only: [id], ...(builtIn ? {} : { toolsDir }) });
    const docs = generatedDocs(await scanFolder(toolsDir), wiringRows());
    regenerated.push(...writeDocs(builtIn ? docs : docs.filter((d) => d.path === join(folder, 'SKILL.md'))));
    if (builtIn) regenerated.push(packageJson);
    return { folder, created: Object.keys(files).map((f) => join(folder, f)), regenerated };
  } catch (err) {
    rmSync(folder, { recursive: true, force: true });
    if (builtIn) writeFileSync(packageJson, packageText);
    throw err;
  }
}

/** SKILL.md and the examples of a new tool (expectedOutput.json comes from a real run). */
function docFiles(id: string, name: string): Record<string, string> {
  const { basic, edgeCase } = examples(id);
  return {
    'SKILL.md': skillMd(id, name),
    'examples/basic.json': `${JSON.stringify(basic, null, 2)}\n`,
    'examples/edgeCase.json': `${JSON.stringify(edgeCase, null, 2)}\n`,
  };
}

/**
 * Writes a publishable tool package in `dir` (which must not exist, or be empty): its
 * package.json with the `toolhub` block, README.md, test/run.test.js and tools/<id>/ in plain
 * JavaScript (tool.js, page.js, run.js, SKILL.md, examples/), then really runs its basic
 * example into expectedOutput.json and fills its SKILL.md's generated sections. `npm pack`
 * packs it as it is. On a failure after writing, what it wrote is removed.
 */
export async function scaffoldPackage(id: string, dir: string): Promise<Scaffolded> {
  const root = resolve(dir);
  if (existsSync(root) && readdirSync(root).length > 0) throw new Error(`${root} is not empty`);
  const toolsDir = join(root, 'tools');
  const folder = join(toolsDir, id);
  if (!TOOL_ID.test(id))
    throw new Error(`'${id}' is not a tool id: lower case letters and digits, words joined by '-'`);
  if (RESERVED.has(id)) throw new Error(`'${id}' is reserved by the hub's own paths`);
  const name = toolName(id);
  const inTool = {
    'tool.js': toolTs(id, name, 'js'),
    'page.js': pageTs(id, 'js'),
    'run.js': runTs(id, 'js'),
    ...docFiles(id, name),
  };
  const files: Record<string, string> = {
    'package.json': packageJson(id, name, hubVersion()),
    'README.md': readmeMd(id, name),
    'test/run.test.js': runTestJs(id),
    ...Object.fromEntries(Object.entries(inTool).map(([f, text]) => [`tools/${id}/${f}`, text])),
  };
  const existed = existsSync(root);
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    format(root);
    const regenerated = await writeExpectedOutputs({ only: [id], toolsDir });
    const docs = generatedDocs(await scanTools({ toolsDir }), wiringRows());
    regenerated.push(...writeDocs(docs.filter((d) => d.path === join(folder, 'SKILL.md'))));
    return { folder: root, created: Object.keys(files).map((f) => join(root, f)), regenerated };
  } catch (err) {
    if (existed)
      for (const entry of readdirSync(root)) rmSync(join(root, entry), { recursive: true, force: true });
    else rmSync(root, { recursive: true, force: true });
    throw err;
  }
}

/** The project's tools/ through the hub's package (its toolhub block); any other folder as EXTRA_TOOL_DIRS. */
function scanFolder(toolsDir: string) {
  return toolsDir === resolve(builtInToolsDir) ? scanTools() : scanTools({ toolsDir });
}

/** package.json with `id` added to its toolhub block's tools, in order; the rest of the text as it was. */
export function withToolListed(packageText: string, id: string): string {
  const pkg = JSON.parse(packageText) as { toolhub: { tools: string[] } };
  pkg.toolhub.tools = [...new Set([...pkg.toolhub.tools, id])].sort();
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/**
 * biome's formatting (a long id can push a template line past the width); a lint error it
 * cannot fix fails the scaffold. The project's configuration applies wherever the folder is
 * (biome's ignore-file lookup refuses a folder outside the repository, hence no VCS).
 */
function format(folder: string): void {
  const biome = join(projectRoot, 'node_modules', '.bin', 'biome');
  const config = `--config-path=${join(projectRoot, 'biome.json')}`;
  try {
    execFileSync(biome, ['check', '--write', '--vcs-enabled=false', config, folder], { stdio: 'pipe' });
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`biome refused the new tool's files:\n${stdout}${stderr}`);
  }
}
