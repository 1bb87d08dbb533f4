import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { metaCheck, ownAjv } from './ajv.js';
import { moduleExt, toolDocsDir, toolsDir } from './paths.js';
import { fieldsFor, takesJsonOrText } from './shared/tool-def.js';
import { TOOL_DEFINITION_SCHEMA, type ToolDefinition } from './shared/tool-def-schema.js';

/** A tool as the API process knows it: its definition and where its implementation is. */
export interface RegisteredTool {
  def: ToolDefinition;
  /** Absolute path of run.ts / run.js; only the worker imports it. */
  runPath: string;
  /** The folder of its SKILL.md and examples/ (docs/tools.md): the tool's folder in the source tree. */
  docsDir: string;
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

// A type guard: what passes is a ToolDefinition, with no cast (one declaration, src/shared/tool-def-schema.ts).
const validateDef = ownAjv({ allErrors: true }).compile<ToolDefinition>(TOOL_DEFINITION_SCHEMA);

/**
 * Scans tool folders (CyberChef's operations folder: adding a tool is adding a folder).
 * Each folder `<id>/` must hold `tool.<ext>` whose default export is a valid definition
 * with the same id, and `run.<ext>`, and may hold its `SKILL.md` and `examples/`.
 * Folders starting with `_` or `.` are skipped.
 */
export async function scanTools(
  extraDirs: readonly string[] = [],
  mainDir: string = toolsDir,
): Promise<Map<string, RegisteredTool>> {
  const tools = new Map<string, RegisteredTool>();
  const builtIn = resolve(toolsDir);
  for (const dir of [mainDir, ...extraDirs].map((d) => resolve(d))) {
    if (!existsSync(dir)) throw new RegistryError(`tool folder ${dir} does not exist`);
    const entries = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !/^[_.]/.test(e.name))
      .map((e) => e.name)
      .sort();
    for (const name of entries) {
      // A built-in tool run from dist/ finds its documents in the source tree; any other
      // tool (EXTRA_TOOL_DIRS, a test's folder) keeps them beside its modules.
      const docsDir = dir === builtIn ? toolDocsDir(name) : join(dir, name);
      const tool = await loadTool(join(dir, name), name, docsDir);
      // The built-in tools' schemas are checked by the suite (src/ajv.test.ts); a plug-in's here.
      if (dir !== builtIn) checkPluginSchemas(tool.def);
      if (tools.has(tool.def.id)) throw new RegistryError(`tool '${tool.def.id}' is defined twice`);
      tools.set(tool.def.id, tool);
    }
  }
  checkCrossReferences(tools);
  return tools;
}

async function loadTool(folder: string, name: string, docsDir: string): Promise<RegisteredTool> {
  const ext = existsSync(join(folder, `tool${moduleExt}`)) ? moduleExt : '.js';
  const toolPath = join(folder, `tool${ext}`);
  const runPath = join(folder, `run${ext}`);
  if (!existsSync(toolPath) || !existsSync(runPath)) {
    throw new RegistryError(`tool folder ${folder} needs tool${ext} and run${ext}`);
  }
  const mod = (await import(pathToFileURL(toolPath).href)) as { default?: unknown };
  const tool = mod.default;
  if (!validateDef(tool)) {
    const problems = (validateDef.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new RegistryError(`tool ${name}: invalid definition: ${problems.join('; ')}`);
  }
  if (tool.id !== name) throw new RegistryError(`tool folder '${name}' defines id '${tool.id}'`);
  return { def: tool, runPath, docsDir };
}

function checkPluginSchemas(def: ToolDefinition): void {
  for (const [name, schema] of [
    ['input', def.input],
    ['output', def.output],
  ] as const) {
    const problems = metaCheck(schema);
    if (problems)
      throw new RegistryError(`tool ${def.id}: its ${name} schema is not a JSON Schema: ${problems}`);
  }
}

/** Checks what a schema cannot: modes, fields and related tools agree with each other. */
export function checkCrossReferences(tools: Map<string, RegisteredTool>): void {
  const paths = new Set<string>();
  for (const { def } of tools.values()) {
    const fail = (msg: string) => {
      throw new RegistryError(`tool ${def.id}: ${msg}`);
    };
    for (const related of def.relatedTools)
      if (!tools.has(related)) fail(`unknown related tool '${related}'`);
    for (const mode of Object.keys(def.fieldsByMode ?? {}))
      if (!def.modes.includes(mode)) fail(`unknown mode '${mode}'`);
    const properties = Object.keys((def.input.properties as Record<string, unknown>) ?? {});
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
  }
}

/** Every named field a tool takes on any mode (the mode field excluded). */
export function namedFields(def: ToolDefinition): string[] {
  const names = new Set<string>();
  for (const map of [def.fields, ...Object.values(def.fieldsByMode ?? {})]) {
    for (const name of Object.values(map)) if (name) names.add(name);
  }
  return [...names];
}
