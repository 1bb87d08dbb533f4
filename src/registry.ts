import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ErrorObject } from 'ajv';
import { metaCheck, ownAjv } from './ajv.js';
import { codeRoot, moduleExt, projectRoot } from './paths.js';
import { expandTool } from './shared/expand-tool.js';
import { fieldsFor, takesJsonOrText } from './shared/tool-def.js';
import { TOOL_SPEC_SCHEMA, type ToolSpec } from './shared/tool-def-schema.js';
import {
  TOOL_DEFINITION_SCHEMA,
  TOOL_PAGE_SCHEMA,
  type ToolDefinition,
  type ToolPage,
} from './shared/tool-definition-schema.js';
import { TOOL_PACKAGE_SCHEMA, type ToolNeeds, type ToolPackageManifest } from './tool-package-schema.js';

/** A tool as the API process knows it: its definition and where its implementation is. */
export interface RegisteredTool {
  def: ToolSpec;
  /** Absolute path of run.ts / run.js; only the worker imports it. */
  runPath: string;
  /** The folder of its SKILL.md and examples/ (docs/tools.md): the tool's folder in the source tree. */
  docsDir: string;
  /** Where it came from: `package <name>` (the hub's own, or TOOL_PACKAGES) or `folder <path>` (EXTRA_TOOL_DIRS). */
  origin: string;
  /** What its package declares it needs (`toolhub.needs`); recorded, not yet enforced. */
  needs: ToolNeeds;
  /** A tool made by the hub, not read from a folder (a named pipeline): its guide and its page's example. */
  generated?: { skillMd: string; example?: Record<string, unknown> };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The registered tools by id, scanned at boot by buildApp. */
    tools: Map<string, RegisteredTool>;
  }
}

export class RegistryError extends Error {
  override name = 'RegistryError';
}

// Type guards: what passes is a ToolDefinition (a ToolPage), with no cast (one declaration each,
// src/shared/tool-definition-schema.ts). The derived spec is checked too: a rule of
// src/shared/expand-tool.ts that broke it would stop the boot, not a door.
const validateDef = ownAjv({ allErrors: true }).compile<ToolDefinition>(TOOL_DEFINITION_SCHEMA);
const validatePage = ownAjv({ allErrors: true }).compile<ToolPage>(TOOL_PAGE_SCHEMA);
const validateSpec = ownAjv({ allErrors: true }).compile<ToolSpec>(TOOL_SPEC_SCHEMA);
// The first problem only: a boot stops with one line naming the field.
const validateManifest = ownAjv().compile<ToolPackageManifest>(TOOL_PACKAGE_SCHEMA);

/** semver ships no types; the two functions the registry uses. */
const semver = createRequire(import.meta.url)('semver') as {
  validRange(range: string): string | null;
  satisfies(version: string, range: string): boolean;
};

/** Where the tools come from (docs/tool-packages.md). */
export interface ToolSources {
  /**
   * A folder of tool folders that replaces the hub's own package (tests, the scaffold's
   * temporary folders); scanned like EXTRA_TOOL_DIRS. Default: the hub's package.json's
   * `toolhub` block (the built-in tools).
   */
  toolsDir?: string;
  /** TOOL_PACKAGES: npm packages with a `toolhub` block, loaded after the hub's own. */
  packages?: readonly string[];
  /** TOOL_PACKAGES_DIR: the folder whose node_modules holds them; default the hub's root. */
  packagesDir?: string;
  /** EXTRA_TOOL_DIRS: folders of tool folders, every one loaded, last. */
  extraDirs?: readonly string[];
}

/**
 * Loads every tool, each through `loadToolFolder`: the hub's own package (its `toolhub`
 * block names the built-in tools), the packages of TOOL_PACKAGES, then the folders of
 * EXTRA_TOOL_DIRS. Any problem is a RegistryError of one line naming its package (or folder)
 * and field; the boot stops on it.
 */
export async function scanTools(sources: ToolSources = {}): Promise<Map<string, RegisteredTool>> {
  const tools = new Map<string, RegisteredTool>();
  const add = (tool: RegisteredTool) => {
    const other = tools.get(tool.def.id);
    if (other)
      throw new RegistryError(
        `tool id '${tool.def.id}' of ${tool.origin} is already defined by ${other.origin}`,
      );
    tools.set(tool.def.id, tool);
  };
  if (sources.toolsDir === undefined) for (const tool of await loadHubPackage()) add(tool);
  else for (const tool of await loadFolderOfTools(sources.toolsDir)) add(tool);
  const from = sources.packagesDir ?? projectRoot;
  for (const name of sources.packages ?? []) for (const tool of await loadToolPackage(name, from)) add(tool);
  for (const dir of sources.extraDirs ?? []) for (const tool of await loadFolderOfTools(dir)) add(tool);
  checkCrossReferences(tools);
  return tools;
}

/** Reads a package.json's `toolhub` block, checked; `label` names the package in errors. */
export function readManifest(packageJsonPath: string, label: string): ToolPackageManifest {
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  } catch (err) {
    throw new RegistryError(
      `${label}: package.json cannot be read: ${(err as Error).message.split('\n')[0]}`,
    );
  }
  const block = (pkg as { toolhub?: unknown } | null)?.toolhub;
  if (block === undefined) throw new RegistryError(`${label}: package.json has no toolhub block`);
  if (!validateManifest(block))
    throw new RegistryError(`${label}: ${manifestProblem(validateManifest.errors)}`);
  return block;
}

/** One ajv error as `toolhub.<field>: <message>`. */
function manifestProblem(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'toolhub: invalid';
  let field = `toolhub${e.instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.')}`;
  let message = e.message ?? 'invalid';
  if (e.keyword === 'required') {
    field += `.${(e.params as { missingProperty: string }).missingProperty}`;
    message = 'is required';
  } else if (e.keyword === 'additionalProperties') {
    field += `.${(e.params as { additionalProperty: string }).additionalProperty}`;
    message = 'is not a field of the manifest';
  } else if (e.keyword === 'const') {
    message = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
  }
  return `${field}: ${message}`;
}

let hubVersionRead: string | undefined;
/** The hub's version (its package.json), which each package's `toolhub.hub` range must include. */
export function hubVersion(): string {
  hubVersionRead ??= String(JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).version);
  return hubVersionRead;
}

/** The hub's own package: its `entry` is compiled into dist/ with the rest, its documents stay in the source tree. */
async function loadHubPackage(): Promise<RegisteredTool[]> {
  const label = "the hub's package.json";
  const manifest = readManifest(join(projectRoot, 'package.json'), label);
  checkHubRange(manifest, label);
  return loadManifestTools(
    manifest,
    label,
    resolve(codeRoot, manifest.entry),
    resolve(projectRoot, manifest.entry),
    {
      origin: "the hub's built-in tools",
      // The built-in tools' schemas are checked by the suite (src/ajv.test.ts); any other's at boot.
      checkSchemas: false,
    },
  );
}

/**
 * A package of TOOL_PACKAGES, found as `require` would find it from `from` (the node_modules
 * of that folder and of the folders above it); its package.json is read directly, so a
 * package's `exports` need not list it.
 */
export async function loadToolPackage(name: string, from: string): Promise<RegisteredTool[]> {
  const label = `tool package '${name}'`;
  if (!PACKAGE_NAME.test(name)) throw new RegistryError(`${label}: not an npm package name (TOOL_PACKAGES)`);
  const root = findPackage(name, from);
  if (!root) throw new RegistryError(`${label}: not found from ${resolve(from)} (TOOL_PACKAGES_DIR)`);
  const manifest = readManifest(join(root, 'package.json'), label);
  checkHubRange(manifest, label);
  const entry = resolve(root, manifest.entry);
  return loadManifestTools(manifest, label, entry, entry, {
    origin: `package '${name}'`,
    checkSchemas: true,
  });
}

/** npm's package names (validate-npm-package-name, new packages): a path never gets through. */
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

function findPackage(name: string, from: string): string | null {
  const paths = createRequire(join(resolve(from), 'package.json')).resolve.paths(name) ?? [];
  for (const dir of paths) if (existsSync(join(dir, name, 'package.json'))) return join(dir, name);
  return null;
}

function checkHubRange(manifest: ToolPackageManifest, label: string): void {
  const version = hubVersion();
  if (semver.validRange(manifest.hub) === null)
    throw new RegistryError(`${label}: toolhub.hub: ${JSON.stringify(manifest.hub)} is not a semver range`);
  if (!semver.satisfies(version, manifest.hub))
    throw new RegistryError(
      `${label}: toolhub.hub: ${JSON.stringify(manifest.hub)} does not include hub ${version}`,
    );
}

async function loadManifestTools(
  manifest: ToolPackageManifest,
  label: string,
  entry: string,
  docsEntry: string,
  opts: { origin: string; checkSchemas: boolean },
): Promise<RegisteredTool[]> {
  const needs: ToolNeeds = { network: manifest.needs?.network ?? false };
  if (manifest.needs?.memoryMb !== undefined) needs.memoryMb = manifest.needs.memoryMb;
  const loaded: RegisteredTool[] = [];
  for (const [i, id] of manifest.tools.entries()) {
    const where = `${label}: toolhub.tools[${i}]`;
    const folder = join(entry, id);
    if (!isFolder(folder))
      throw new RegistryError(`${where}: '${id}' has no folder ${relativeName(folder)} in toolhub.entry`);
    loaded.push(
      await loadToolFolder(folder, id, {
        where,
        origin: opts.origin,
        docsDir: join(docsEntry, id),
        needs,
        checkSchemas: opts.checkSchemas,
      }),
    );
  }
  return loaded;
}

/** A folder of tool folders (EXTRA_TOOL_DIRS, tests): every folder not starting with `_` or `.`. */
async function loadFolderOfTools(dir: string): Promise<RegisteredTool[]> {
  const root = resolve(dir);
  if (!existsSync(root)) throw new RegistryError(`tool folder ${root} does not exist`);
  const names = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !/^[_.]/.test(e.name))
    .map((e) => e.name)
    .sort();
  const loaded: RegisteredTool[] = [];
  for (const name of names) {
    const folder = join(root, name);
    loaded.push(
      await loadToolFolder(folder, name, {
        where: `tool folder ${folder}`,
        origin: `folder ${root}`,
        docsDir: folder,
        needs: { network: false },
        checkSchemas: true,
      }),
    );
  }
  return loaded;
}

interface FolderContext {
  /** Names the tool in errors: `tool package 'x': toolhub.tools[0]` or `tool folder <path>`. */
  where: string;
  origin: string;
  docsDir: string;
  needs: ToolNeeds;
  checkSchemas: boolean;
}

/**
 * One tool folder, however it was named (a package's manifest, EXTRA_TOOL_DIRS): `tool.<ext>`
 * whose default export is a valid definition with the id `id`, `run.<ext>`, and optionally
 * `page.<ext>`, the page content (`.ts` where the hub runs from sources and the folder has
 * one, `.js` otherwise). The definition and the page are expanded into the tool's spec.
 */
export async function loadToolFolder(
  folder: string,
  id: string,
  ctx: FolderContext,
): Promise<RegisteredTool> {
  const ext = existsSync(join(folder, `tool${moduleExt}`)) ? moduleExt : '.js';
  const toolPath = join(folder, `tool${ext}`);
  const runPath = join(folder, `run${ext}`);
  const pagePath = join(folder, `page${ext}`);
  if (!existsSync(toolPath) || !existsSync(runPath)) {
    throw new RegistryError(`${ctx.where}: ${relativeName(folder)} needs tool${ext} and run${ext}`);
  }
  const tool = await defaultExport(toolPath, ctx.where);
  if (!validateDef(tool))
    throw new RegistryError(`${ctx.where}: tool ${id}: invalid definition: ${problems(validateDef.errors)}`);
  if (tool.id !== id) throw new RegistryError(`${ctx.where}: folder '${id}' defines id '${tool.id}'`);
  const page = existsSync(pagePath) ? await defaultExport(pagePath, ctx.where) : {};
  if (!validatePage(page))
    throw new RegistryError(
      `${ctx.where}: tool ${id}: invalid page content: ${problems(validatePage.errors)}`,
    );
  const spec = expandTool(tool, page);
  if (!validateSpec(spec))
    throw new RegistryError(
      `${ctx.where}: tool ${id}: its derived spec is invalid: ${problems(validateSpec.errors)}`,
    );
  if (ctx.checkSchemas) checkPluginSchemas(spec, ctx.where);
  return { def: spec, runPath, docsDir: ctx.docsDir, origin: ctx.origin, needs: ctx.needs };
}

async function defaultExport(path: string, where: string): Promise<unknown> {
  try {
    return ((await import(pathToFileURL(path).href)) as { default?: unknown }).default;
  } catch (err) {
    throw new RegistryError(`${where}: ${relativeName(path)} cannot be loaded: ${firstLine(err)}`);
  }
}

/** ajv's errors in one line; an unknown field is named (a definition in an older shape has many). */
function problems(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) =>
      e.keyword === 'additionalProperties'
        ? `${e.instancePath || '/'} has an unknown field '${(e.params as { additionalProperty: string }).additionalProperty}'`
        : `${e.instancePath || '/'} ${e.message}`,
    )
    .join('; ');
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A path as short as it can be said: relative to the working folder when inside it. */
function relativeName(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

function checkPluginSchemas(def: ToolSpec, where: string): void {
  for (const [name, schema] of [
    ['input', def.input],
    ['output', def.output],
  ] as const) {
    const problems = metaCheck(schema);
    if (problems)
      throw new RegistryError(
        `${where}: tool ${def.id}: its ${name} schema is not a JSON Schema: ${problems}`,
      );
  }
}

/** Checks what a schema cannot: modes, fields and related tools agree with each other. */
export function checkCrossReferences(tools: Map<string, RegisteredTool>): void {
  const paths = new Set<string>();
  for (const { def, origin } of tools.values()) {
    const fail = (msg: string) => {
      throw new RegistryError(`tool ${def.id}${origin ? ` of ${origin}` : ''}: ${msg}`);
    };
    for (const related of def.relatedTools)
      if (!tools.has(related)) fail(`unknown related tool '${related}'`);
    const properties = Object.keys((def.input.properties as Record<string, unknown>) ?? {});
    // Field descriptions are written once, in the input schema: agents read them (semanticFields).
    for (const field of properties)
      if (!(field in def.semanticFields)) fail(`input field '${field}' has no description`);
    if (def.modeField !== null && properties.includes(def.modeField))
      fail(`the mode field '${def.modeField}' is declared in modes, not in the input schema`);
    for (const mode of Object.keys(def.fieldsByMode ?? {}))
      if (!def.modes.includes(mode)) fail(`unknown mode '${mode}'`);
    for (const field of namedFields(def))
      if (!properties.includes(field)) fail(`field '${field}' not in input schema`);
    for (const [option, modes] of Object.entries(def.optionModes ?? {})) {
      if (!properties.includes(option)) fail(`option '${option}' not in input schema`);
      for (const mode of modes) {
        if (!def.modes.includes(mode)) fail(`option '${option}': unknown mode '${mode}'`);
        // A field a slot carries in some modes is an option only where none does (cron's timezone under convert).
        else if (Object.values(fieldsFor(def, mode)).includes(option))
          fail(`option '${option}' is carried by a slot in mode '${mode}'`);
      }
    }
    for (const field of def.jsonText ?? [])
      if (!takesJsonOrText(def, field))
        fail(`jsonText '${field}' must be an input field that takes a string and a JSON value`);
    for (const ep of def.endpoints) {
      if (paths.has(ep.path)) fail(`endpoint ${ep.path} is taken`);
      paths.add(ep.path);
      for (const m of [...(ep.mode ? [ep.mode] : []), ...(ep.modes ?? [])]) {
        if (!def.modes.includes(m)) fail(`endpoint ${ep.path}: unknown mode '${m}'`);
      }
      if (!ep.mode && def.modeField === null) fail(`endpoint ${ep.path}: no mode field and no fixed mode`);
    }
    if (def.modeField === null)
      for (const mode of def.modes)
        if (!def.endpoints.some((ep) => ep.mode === mode))
          fail(`mode '${mode}' has no mode field and no path of its own (modes.each.${mode}.path)`);
  }
}

/** Every named field a tool takes on any mode (the mode field excluded). */
export function namedFields(def: ToolSpec): string[] {
  const names = new Set<string>();
  for (const map of [def.fields, ...Object.values(def.fieldsByMode ?? {})]) {
    for (const name of Object.values(map)) if (name) names.add(name);
  }
  return [...names];
}
