/**
 * structured-output-validator: validate JSON (or JSON pulled out of LLM text) against a
 * draft-07 schema with ajv, or check a schema / LLM tool schema itself.
 */
import { type ToolInput, ToolInputError, unsupported } from '#tool-kit';
import { checkSchema } from './check-schema.js';
import { extractJson } from './extract-json.js';
import { checkJsonShape, MAX_SCHEMA_DEPTH, MAX_TARGET_DEPTH, readJsonField } from './json-input.js';
import { PROVIDERS, type Provider } from './provider-rules.js';
import { compileSchemaDocument, declaredDialect, prefixIssues } from './schema-compile.js';
import { detectSchemaKind } from './schema-kind.js';
import { toStrictSchema } from './strict-fix.js';
import { type CachedValidator, getValidator, runValidator } from './validator-cache.js';

const NOT_JSON_HINT = "; use mode 'lenient' to pull the JSON out of prose or code fences";

/** The schema cannot require target: schema mode goes without it. */
function requireTarget(input: ToolInput, mode: string): unknown {
  if (input.target === undefined) {
    throw new ToolInputError(`target is required in ${mode} mode (mode 'schema' checks the schema alone)`);
  }
  return input.target;
}

/** Validates a JSON value already read and shape-checked. */
async function verdict(validator: CachedValidator, data: unknown) {
  const result = await runValidator(validator.validate, data);
  return {
    valid: result.valid,
    errors: result.issues,
    errorCount: result.count,
    truncated: result.count > result.issues.length,
    kind: validator.kind,
  };
}

async function validateMode(input: ToolInput) {
  const validator = getValidator(input.schema);
  const data = readJsonField(requireTarget(input, 'validate'), 'target', NOT_JSON_HINT);
  checkJsonShape(data, 'target', MAX_TARGET_DEPTH);
  return verdict(validator, data);
}

async function lenientMode(input: ToolInput) {
  const validator = getValidator(input.schema);
  const target = requireTarget(input, 'lenient');
  let extraction: ReturnType<typeof extractJson>;
  if (typeof target === 'string') {
    extraction = extractJson(target);
  } else {
    // Already a JSON value (POST body): nothing to extract.
    checkJsonShape(target, 'target', MAX_TARGET_DEPTH);
    const text = JSON.stringify(target);
    extraction = { ok: true, value: target, text, from: 'raw', start: 0, end: text.length, candidates: 1 };
  }
  if (!extraction.ok) {
    return {
      valid: false,
      errors: [{ path: '', keyword: 'json', message: extraction.reason }],
      errorCount: 1,
      truncated: false,
      kind: validator.kind,
      extractedFrom: null,
      extracted: null,
    };
  }
  checkJsonShape(extraction.value, 'target', MAX_TARGET_DEPTH);
  return {
    ...(await verdict(validator, extraction.value)),
    extractedFrom: extraction.from,
    extracted: extraction.text,
    extractedRange: { start: extraction.start, end: extraction.end },
    candidates: extraction.candidates,
  };
}

/** The provider option (the input schema has checked it against PROVIDERS already). */
function providerOf(input: ToolInput, mode: string): Provider | undefined {
  const p = input.provider;
  if (p === undefined || p === null || p === '') return undefined;
  if (mode !== 'schema' && mode !== 'fix') {
    throw new ToolInputError(
      `provider applies to modes 'schema' and 'fix', not '${mode}'`,
      'UNSUPPORTED_OPTION',
    );
  }
  if (!(PROVIDERS as readonly unknown[]).includes(p)) throw unsupported('provider', p, PROVIDERS);
  return p as Provider;
}

function schemaMode(input: ToolInput) {
  const provider = providerOf(input, 'schema');
  const doc = readJsonField(input.schema, 'schema');
  checkJsonShape(doc, 'schema', MAX_SCHEMA_DEPTH);
  return checkSchema(doc, provider);
}

/** Sets `value` at the pointer `path` of a copy of `doc` (the pointer names an existing object member). */
function replaceAt(doc: unknown, path: string, value: unknown): unknown {
  if (path === '') return value;
  const copy = structuredClone(doc) as Record<string, unknown>;
  const keys = path.slice(1).split('/');
  let node = copy;
  for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>;
  node[keys[keys.length - 1]!] = value;
  return copy;
}

/** Mode fix: the OpenAI strict-mode version of the schema (in the document's own shape), its changes, its lint. */
function fixMode(input: ToolInput) {
  const provider = providerOf(input, 'fix');
  if (provider !== undefined && provider !== 'openai-strict') {
    throw new ToolInputError(
      `mode 'fix' produces the OpenAI strict-mode schema only: leave provider out or set it to 'openai-strict' (got '${provider}')`,
      'UNSUPPORTED_OPTION',
    );
  }
  const doc = readJsonField(input.schema, 'schema');
  checkJsonShape(doc, 'schema', MAX_SCHEMA_DEPTH);
  const target = detectSchemaKind(doc);
  const base = prefixIssues(
    compileSchemaDocument(target.schema, declaredDialect(target.schema) ?? 'draft-07'),
    target.schemaPath,
  );
  const { schema, changes } = toStrictSchema(target.schema, target.schemaPath);
  if (base.count > 0) {
    // An invalid schema is not rewritten: its own errors come first.
    return {
      valid: false,
      kind: target.kind,
      errors: base.issues.map((i) => ({ ...i, provider: 'openai-strict' })),
      errorCount: base.count,
      truncated: base.count > base.issues.length,
      provider: 'openai-strict',
      changes: [],
      changeCount: 0,
    };
  }
  const fixed = replaceAt(doc, target.schemaPath, schema) as Record<string, unknown>;
  if (target.kind === 'openai-function' || target.kind === 'openai-response-format') {
    const hp = target.holderPath ?? '';
    const holder = (hp === '' ? fixed : fixed[hp.slice(1)]) as Record<string, unknown>;
    if (holder.strict !== true) {
      changes.add(`${hp}/strict`, 'strict' in holder ? 'changed' : 'added', 'strict', 'strict: true set');
      holder.strict = true;
    }
  }
  const lint = checkSchema(fixed, 'openai-strict', false);
  return { ...lint, fixed, changes: changes.changes, changeCount: changes.count };
}

/** Input as the schema in tool.ts passed it: a schema present, text fields within their length. */
export default async function run(input: ToolInput, mode: string): Promise<unknown> {
  providerOf(input, mode);
  switch (mode) {
    case 'lenient':
      return lenientMode(input);
    case 'schema':
      return schemaMode(input);
    case 'fix':
      return fixMode(input);
    default:
      return validateMode(input);
  }
}
