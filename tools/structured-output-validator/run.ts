/**
 * structured-output-validator: validate JSON (or JSON pulled out of LLM text) against a
 * draft-07 schema with ajv, or check a schema / LLM tool schema itself.
 */
import { type ToolInput, ToolInputError } from '#tool-kit';
import { checkSchema } from './check-schema.js';
import { extractJson } from './extract-json.js';
import { checkJsonShape, MAX_SCHEMA_DEPTH, MAX_TARGET_DEPTH, readJsonField } from './json-input.js';
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

function schemaMode(input: ToolInput) {
  const doc = readJsonField(input.schema, 'schema');
  checkJsonShape(doc, 'schema', MAX_SCHEMA_DEPTH);
  return checkSchema(doc);
}

/** Input as the schema in tool.ts passed it: a schema present, text fields within their length. */
export default async function run(input: ToolInput, mode: string): Promise<unknown> {
  switch (mode) {
    case 'lenient':
      return lenientMode(input);
    case 'schema':
      return schemaMode(input);
    default:
      return validateMode(input);
  }
}
