import { isObject } from '../shared/is-object.js';
import type { JsonSchema, ToolSpec } from '../shared/tool-def-schema.js';
import { fits, type JsonType, schemaAt, typeOfValue, typesOf, typeWords } from './schema-types.js';

/**
 * A pipeline's definition, checked before anything runs (docs/api.md, "Pipelines"; serving
 * pipelines is not built yet): every
 * step names a tool (and a mode it has), every field it feeds is one the tool takes, every
 * `{"$from": "<JSON Pointer>"}` resolves against the pipeline's input or the declared output
 * schema of an earlier step, and the type found there fits the field. A definition that does
 * not check is refused naming the step, the field, the pointer and both types.
 */
export const PIPELINE_MAX_STEPS = 10;

export interface PipelineStep {
  toolId: string;
  mode?: string;
  /** Each field: a literal value, or `{"$from": "/input/<name>"}` / `{"$from": "/steps/<k>/result/…"}`. */
  input: Record<string, unknown>;
}

export interface CheckedPipeline {
  steps: PipelineStep[];
  /** The pipeline's own input: the `/input/<name>` fields, each typed as the field it feeds. */
  inputSchema: JsonSchema;
  /** What the pipeline answers: the last step's output schema. */
  outputSchema: JsonSchema;
}

export class PipelineDefinitionError extends Error {
  override name = 'PipelineDefinitionError';
  constructor(
    message: string,
    /** The step (from 0) the problem is in; null: the definition as a whole. */
    readonly step: number | null = null,
    readonly pointer: string | null = null,
  ) {
    super(message);
  }
}

/** Reads a JSON Pointer (RFC 6901) into its segments; null when it is not one. */
export function pointerSegments(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The `$from` pointer of a field's value, or null for a literal. */
export function fromOf(value: unknown): string | null | undefined {
  if (!isObject(value) || !('$from' in value)) return null;
  if (Object.keys(value).length !== 1 || typeof value.$from !== 'string') return undefined;
  return value.$from;
}

const cut = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function checkPipeline(
  definition: unknown,
  toolOf: (id: string) => ToolSpec | undefined,
): CheckedPipeline {
  if (!isObject(definition) || !Array.isArray(definition.steps))
    throw new PipelineDefinitionError('a pipeline is an object with `steps`, an array of steps');
  const steps = definition.steps as unknown[];
  if (steps.length === 0 || steps.length > PIPELINE_MAX_STEPS)
    throw new PipelineDefinitionError(
      `a pipeline has 1 to ${PIPELINE_MAX_STEPS} steps; this one has ${steps.length}`,
    );
  const specs: ToolSpec[] = [];
  const inputs = new Map<
    string,
    { schema: JsonSchema; types: Set<JsonType> | null; step: number; field: string }
  >();
  const checked = steps.map((raw, i): PipelineStep => {
    const at = `step ${i}`;
    if (!isObject(raw) || typeof raw.toolId !== 'string' || !isObject(raw.input))
      throw new PipelineDefinitionError(`${at}: a step is {"toolId", "mode"?, "input": {…}}`, i);
    const spec = toolOf(raw.toolId);
    if (!spec) throw new PipelineDefinitionError(`${at}: unknown toolId "${cut(raw.toolId, 64)}"`, i);
    if (raw.mode !== undefined && (typeof raw.mode !== 'string' || !spec.modes.includes(raw.mode)))
      throw new PipelineDefinitionError(
        `${at} (${spec.id}): mode ${cut(JSON.stringify(raw.mode), 64)} is not one of ${spec.modes.join(', ')}`,
        i,
      );
    const given = raw.input;
    const properties = isObject(spec.input.properties) ? spec.input.properties : {};
    for (const [field, value] of Object.entries(given)) {
      const target = properties[field];
      if (!isObject(target))
        throw new PipelineDefinitionError(
          `${at} (${spec.id}): it takes no field "${cut(field, 64)}"; it takes ${Object.keys(properties).join(', ')}`,
          i,
        );
      const want = typesOf(target);
      const pointer = fromOf(value);
      if (pointer === undefined)
        throw new PipelineDefinitionError(
          `${at} (${spec.id}) field ${field}: {"$from"} holds one pointer string and nothing else`,
          i,
        );
      if (pointer === null) {
        const got = new Set([typeOfValue(value)]);
        if (!fits(got, want))
          throw new PipelineDefinitionError(
            `${at} (${spec.id}) field ${field}: the literal is ${typeWords(got)}; the field takes ${typeWords(want)}`,
            i,
          );
        continue;
      }
      const where = `${at} (${spec.id}) field ${field}: ${cut(pointer)}`;
      const segments = pointerSegments(pointer);
      if (segments?.[0] === 'input' && segments.length === 2) {
        const name = segments[1]!;
        const seen = inputs.get(name);
        if (seen && typeWords(seen.types) !== typeWords(want))
          throw new PipelineDefinitionError(
            `${where} feeds a field that takes ${typeWords(want)}, and step ${seen.step} field ${seen.field} one that takes ${typeWords(seen.types)}`,
            i,
            pointer,
          );
        if (!seen) inputs.set(name, { schema: target, types: want, step: i, field });
        continue;
      }
      if (segments?.[0] !== 'steps' || segments[2] !== 'result' || !/^(0|[1-9]\d*)$/.test(segments[1] ?? ''))
        throw new PipelineDefinitionError(
          `${where} is neither /input/<name> nor /steps/<k>/result/… (a JSON Pointer)`,
          i,
          pointer,
        );
      const k = Number(segments[1]);
      if (k >= i)
        throw new PipelineDefinitionError(
          `${where} names step ${k}, which is not an earlier step`,
          i,
          pointer,
        );
      const source = schemaAt(specs[k]!.output, segments.slice(3));
      if (!source)
        throw new PipelineDefinitionError(
          `${where} names nothing step ${k} (${specs[k]!.id}) declares in its output schema`,
          i,
          pointer,
        );
      const got = typesOf(source);
      if (!got)
        throw new PipelineDefinitionError(
          `${where}: step ${k} (${specs[k]!.id}) declares no type there; the field takes ${typeWords(want)}`,
          i,
          pointer,
        );
      if (!fits(got, want))
        throw new PipelineDefinitionError(
          `${where} is ${typeWords(got)}; the field takes ${typeWords(want)}`,
          i,
          pointer,
        );
    }
    const required = Array.isArray(spec.input.required) ? (spec.input.required as string[]) : [];
    const missing = required.filter((f) => !(f in given));
    if (missing.length)
      throw new PipelineDefinitionError(`${at} (${spec.id}): the input lacks ${missing.join(', ')}`, i);
    specs.push(spec);
    return { toolId: spec.id, ...(typeof raw.mode === 'string' ? { mode: raw.mode } : {}), input: given };
  });
  const inputSchema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries([...inputs].map(([name, v]) => [name, v.schema])),
    required: [...inputs.keys()],
    additionalProperties: false,
  };
  return { steps: checked, inputSchema, outputSchema: specs[specs.length - 1]!.output };
}
