import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JSONSchema } from 'json-schema-to-ts';
import { ownAjv } from '../ajv.js';
import type { ToolPolicy } from '../config/policy.js';
import { yamlModule } from '../config/yaml.js';
import type { RegisteredTool } from '../registry.js';
import { compileValidators } from '../run/input.js';
import { checkPipeline, PipelineDefinitionError } from './check.js';
import { type NamedPipeline, type PipelineEntry, pipelineTool } from './pipeline-tool.js';

/** A pipelines file that does not check: one line naming the file, the pipeline and the problem. */
export class PipelineFileError extends Error {
  override name = 'PipelineFileError';
}

/** Most named pipelines in one file: each is a tool on every door (listings, pages, OpenAPI). */
export const PIPELINES_MAX = 100;

const ID = '^[a-z][a-z0-9-]{0,63}$';
const FILE_SCHEMA = {
  type: 'object',
  required: ['pipelines'],
  additionalProperties: false,
  properties: {
    pipelines: {
      type: 'array',
      maxItems: PIPELINES_MAX,
      items: {
        type: 'object',
        required: ['id', 'name', 'description', 'steps'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: ID },
          name: { type: 'string', minLength: 1, maxLength: 120 },
          description: { type: 'string', minLength: 1, maxLength: 2000 },
          inputs: { type: 'object', additionalProperties: { type: 'string', minLength: 1, maxLength: 1000 } },
          example: { type: 'object' },
          steps: { type: 'array' },
        },
      },
    },
  },
} as const satisfies JSONSchema;

const validateFile = ownAjv().compile<{ pipelines: PipelineEntry[] }>(FILE_SCHEMA);

/** What the set is made from: the registry and the effective policies (fixed at boot), the file. */
export interface PipelineSources {
  /** PIPELINES_FILE; null: no named pipelines. */
  path: string | null;
  tools: Map<string, RegisteredTool>;
  policies: Map<string, ToolPolicy>;
  /** PIPELINE_TIMEOUT_MS. */
  timeoutMs: number;
}

interface Loaded {
  byId: Map<string, NamedPipeline>;
  validators: Map<string, ValidateFunction>;
  tools: Map<string, RegisteredTool>;
  policies: Map<string, ToolPolicy>;
}

/**
 * The named pipelines (docs/api.md, "Pipelines"), read from PIPELINES_FILE at boot and again on
 * SIGHUP: a file that does not check throws and keeps the set as it was. `version` grows with
 * each load, so what the doors derive (listings, pages, the catalogue) is rebuilt once per change.
 */
export class PipelineSet {
  private loaded: Loaded;
  version = 0;

  constructor(private readonly sources: PipelineSources) {
    this.loaded = {
      byId: new Map(),
      validators: new Map(),
      tools: sources.tools,
      policies: sources.policies,
    };
  }

  get path(): string | null {
    return this.sources.path;
  }

  get(id: string): NamedPipeline | undefined {
    return this.loaded.byId.get(id);
  }

  get size(): number {
    return this.loaded.byId.size;
  }

  ids(): string[] {
    return [...this.loaded.byId.keys()];
  }

  /** The input validator of a named pipeline (coercing, as a tool's). */
  validator(id: string): ValidateFunction | undefined {
    return this.loaded.validators.get(id);
  }

  /** The tools and the named pipelines, as one registry: what every listing and page reads. */
  get tools(): Map<string, RegisteredTool> {
    return this.loaded.tools;
  }

  /** The effective policies, with each named pipeline's published one. */
  get policies(): Map<string, ToolPolicy> {
    return this.loaded.policies;
  }

  /** Reads the file (again); the ids loaded. Throws PipelineFileError and keeps the old set. */
  load(): string[] {
    const { path } = this.sources;
    if (path === null) return [];
    const byId = readPipelines(path, this.sources);
    const pipelineTools = new Map([...byId].map(([id, p]) => [id, p.tool] as const));
    this.loaded = {
      byId,
      validators: compileValidators(pipelineTools),
      tools: new Map([...this.sources.tools, ...pipelineTools]),
      policies: new Map([...this.sources.policies, ...[...byId].map(([id, p]) => [id, p.policy] as const)]),
    };
    this.version++;
    return [...byId.keys()];
  }
}

function readPipelines(path: string, sources: PipelineSources): Map<string, NamedPipeline> {
  const where = `PIPELINES_FILE ${path}`;
  let data: unknown;
  try {
    const text = readFileSync(resolve(path), 'utf8');
    data = /\.json$/i.test(path) ? JSON.parse(text) : yamlModule().parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new PipelineFileError(`${where}: cannot be read: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!validateFile(data)) throw new PipelineFileError(`${where}: ${fileProblem(validateFile.errors)}`);
  const { tools, policies, timeoutMs } = sources;
  const toolOf = (id: string) => tools.get(id)?.def;
  const byId = new Map<string, NamedPipeline>();
  for (const [i, entry] of data.pipelines.entries()) {
    const at = `${where}: pipelines[${i}] (${entry.id})`;
    if (tools.has(entry.id)) throw new PipelineFileError(`${at}: the id is a tool's`);
    if (entry.id === 'run') throw new PipelineFileError(`${at}: "run" is POST /api/pipelines/run's`);
    if (byId.has(entry.id)) throw new PipelineFileError(`${at}: the id is given twice`);
    let named: NamedPipeline;
    try {
      const checked = checkPipeline(entry, toolOf);
      const names = Object.keys(checked.inputSchema.properties as object);
      if (names.length === 0)
        throw new PipelineDefinitionError('a named pipeline takes at least one /input/<name> field');
      for (const name of Object.keys(entry.inputs ?? {}))
        if (!names.includes(name))
          throw new PipelineDefinitionError(`inputs.${name}: no step reads /input/${name}`);
      named = pipelineTool(
        entry,
        checked,
        (id) => tools.get(id)!.def,
        (id) => policies.get(id)!,
        timeoutMs,
        `pipelines file ${path}`,
      );
    } catch (err) {
      if (err instanceof PipelineDefinitionError) throw new PipelineFileError(`${at}: ${err.message}`);
      throw err;
    }
    if (entry.example !== undefined) {
      const validate = compileValidators(new Map([[entry.id, named.tool]])).get(entry.id)!;
      if (!validate(structuredClone(entry.example)))
        throw new PipelineFileError(`${at}: ${fileProblem(validate.errors, 'example')}`);
    }
    byId.set(entry.id, named);
  }
  return byId;
}

function fileProblem(errors: ErrorObject[] | null | undefined, root = 'file'): string {
  const e = errors?.[0];
  if (!e) return 'invalid';
  const path = e.instancePath.slice(1).replaceAll('/', '.');
  // The file's own paths start at its root (pipelines.0.id); an example's are named under it.
  const at = root === 'file' ? path || root : path ? `${root}.${path}` : root;
  if (e.keyword === 'additionalProperties')
    return `${at}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  return `${at} ${e.message ?? 'is invalid'}`;
}
