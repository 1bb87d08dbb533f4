import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { yamlModule } from '../config/yaml.js';
import { EXAMPLE_NAMES, examplePath } from '../docs/examples.js';
import { commonSkillsDir } from '../paths.js';
import { hubVersion, type RegisteredTool } from '../registry.js';
import { once } from '../shared/once.js';
import { type CatalogueContext, describeTool, remoteCallable } from './descriptor.js';
import { buildOpenApi } from './openapi.js';

/** A document served as is: its body, encoded once at boot, and its ETag. */
export interface Served {
  /** UTF-8 bytes: sending a Buffer spares the encoding of the same text on every request. */
  body: Buffer;
  etag: string;
  type: string;
}

export interface Catalogue {
  index: Served;
  bundle: Served;
  descriptors: Map<string, Served>;
  /** By URL path: `/skills/<toolId>/SKILL.md` (from tools/<toolId>/) and `/skills/common/<name>.md`. */
  markdown: Map<string, Served>;
  openapiJson: Served;
  /** Made on its first request (YAML is the rarer form, and its library costs the boot). */
  openapiYaml: () => Served;
  openapi: Record<string, unknown>;
}

/** Where agents call the tools, beside each tool's dedicated endpoints (docs/api.md). */
const ENTRY_POINTS = {
  runtime: '/api/tools/run/',
  batch: '/api/tools/batch/',
  mcp: '/mcp',
  pages: '/tools/',
};

export const COMMON_FILES = {
  errorHandling: 'error-handling.md',
  invocationPatterns: 'invocation-patterns.md',
  safetyDefaults: 'safety-defaults.md',
} as const;

function served(text: string, type: string): Served {
  const body = Buffer.from(text);
  return { body, type, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"` };
}

const json = (value: unknown) => served(JSON.stringify(value), 'application/json; charset=utf-8');
const markdown = (text: string) => served(text, 'text/markdown; charset=utf-8');

function toolFiles(tool: RegisteredTool) {
  // A named pipeline's guide is generated from its definition (src/pipelines/pipeline-tool.ts).
  if (tool.generated) {
    const examples = {
      basic: tool.generated.example ? { input: tool.generated.example } : {},
      edgeCase: {},
      expectedOutput: {},
    };
    return { skillMd: tool.generated.skillMd, examples };
  }
  const skillPath = join(tool.docsDir, 'SKILL.md');
  // A plug-in tool without docs still gets a catalogue entry made from its definition.
  const skillMd = existsSync(skillPath)
    ? readFileSync(skillPath, 'utf8')
    : `# ${tool.def.name}\n\n${tool.def.description}\n`;
  const examples = Object.fromEntries(
    EXAMPLE_NAMES.map((name) => {
      const path = examplePath(tool.docsDir, name);
      return [name, existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {}];
    }),
  ) as Record<(typeof EXAMPLE_NAMES)[number], Record<string, unknown>>;
  return { skillMd, examples };
}

/** Builds every catalogue document once; requests are then answered from memory. */
export function buildCatalogue(ctx: CatalogueContext): Catalogue {
  const generatedAt = new Date().toISOString();
  const version = hubVersion();
  const ids = [...ctx.tools.keys()].sort();
  const entry = (id: string) => ({
    toolId: id,
    modeLabel: 'Dedicated API',
    remoteMode: 'dedicated_api',
    remoteCallable: remoteCallable(ctx, id),
    riskClass: ctx.policies.get(id)!.riskClass,
  });
  const markdownFiles = new Map<string, Served>();
  const common: Record<string, string> = {};
  for (const [key, file] of Object.entries(COMMON_FILES)) {
    const text = readFileSync(join(commonSkillsDir, file), 'utf8');
    common[key] = text;
    markdownFiles.set(`/skills/common/${file}`, markdown(text));
  }
  const bundleTools = ids.map((id) => {
    const files = toolFiles(ctx.tools.get(id)!);
    markdownFiles.set(`/skills/${id}/SKILL.md`, markdown(files.skillMd));
    return { ...entry(id), files };
  });
  const descriptors = new Map(
    ids.map((id) => [id, json({ generatedAt, tool: describeTool(ctx, ctx.tools.get(id)!.def) })] as const),
  );
  const openapi = buildOpenApi(ctx, version);
  return {
    index: json({
      generatedAt,
      version,
      toolCount: ids.length,
      commonFiles: Object.values(COMMON_FILES).map((f) => `/skills/common/${f}`),
      entryPoints: ENTRY_POINTS,
      tools: ids.map(entry),
    }),
    bundle: json({ generatedAt, version, toolCount: ids.length, common, tools: bundleTools }),
    descriptors,
    markdown: markdownFiles,
    openapiJson: json(openapi),
    openapiYaml: once(() =>
      served(
        yamlModule().stringify(openapi, { aliasDuplicateObjects: false }),
        'application/yaml; charset=utf-8',
      ),
    ),
    openapi,
  };
}
