/**
 * Recognises LLM tool/function definitions wrapping a JSON Schema, so that their
 * parameters schema is what gets checked or validated against. Detection is structural:
 * a plain JSON Schema that merely has a `name` is not taken for a tool (it must also
 * lack schema assertion keywords, which a schema with only annotations would validate nothing with).
 */
import { isPlainObject } from './json-input.js';

export type SchemaKind =
  | 'json-schema'
  | 'openai-function'
  | 'function-declaration'
  | 'anthropic-tool'
  | 'mcp-tool'
  | 'openai-response-format';

export interface SchemaTarget {
  kind: SchemaKind;
  /** The schema to check or validate against (undefined: a tool without parameters). */
  schema: unknown;
  /** JSON Pointer of `schema` inside the document. */
  schemaPath: string;
  /** Whether the tool format requires the parameters schema. */
  schemaRequired: boolean;
  /** Tool name and its pointer (tools only). */
  name?: unknown;
  namePath?: string;
  description?: unknown;
  descriptionPath?: string;
  /** The holder of name/description/strict (the tool or response-format object) and its pointer. */
  holder?: Record<string, unknown>;
  holderPath?: string;
}

const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const ASSERTION_KEYWORDS = [
  'properties',
  'items',
  '$ref',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'enum',
  'const',
  'required',
  'additionalProperties',
  'patternProperties',
  'if',
  '$schema',
];

function looksLikeSchema(doc: Record<string, unknown>): boolean {
  const t = doc.type;
  if (typeof t === 'string' && JSON_TYPES.has(t)) return true;
  if (Array.isArray(t)) return true;
  return ASSERTION_KEYWORDS.some((k) => k in doc);
}

function tool(
  kind: SchemaKind,
  holder: Record<string, unknown>,
  base: string,
  key: string,
  schemaRequired: boolean,
): SchemaTarget {
  return {
    kind,
    schema: holder[key],
    schemaPath: `${base}/${key}`,
    schemaRequired,
    name: holder.name,
    namePath: `${base}/name`,
    description: holder.description,
    descriptionPath: `${base}/description`,
    holder,
    holderPath: base,
  };
}

export function detectSchemaKind(doc: unknown): SchemaTarget {
  const plain: SchemaTarget = { kind: 'json-schema', schema: doc, schemaPath: '', schemaRequired: true };
  if (!isPlainObject(doc)) return plain;
  // OpenAI Chat Completions: {type:'function', function:{name, description, parameters}}.
  if (doc.type === 'function' && isPlainObject(doc.function)) {
    return tool('openai-function', doc.function, '/function', 'parameters', false);
  }
  // OpenAI Responses API: {type:'function', name, description, parameters}.
  if (doc.type === 'function') return tool('openai-function', doc, '', 'parameters', false);
  // OpenAI response_format {type:'json_schema', json_schema:{name, schema, strict}} (Chat
  // Completions) or text.format {type:'json_schema', name, schema, strict} (Responses).
  if (doc.type === 'json_schema' && isPlainObject(doc.json_schema)) {
    return tool('openai-response-format', doc.json_schema, '/json_schema', 'schema', true);
  }
  if (doc.type === 'json_schema') return tool('openai-response-format', doc, '', 'schema', true);
  if (looksLikeSchema(doc)) return plain;
  if ('input_schema' in doc) return tool('anthropic-tool', doc, '', 'input_schema', true);
  if ('inputSchema' in doc && 'name' in doc) return tool('mcp-tool', doc, '', 'inputSchema', true);
  // OpenAI legacy `functions`, Gemini function declarations: {name, description, parameters}.
  if ('parameters' in doc && 'name' in doc) return tool('function-declaration', doc, '', 'parameters', false);
  // Gemini's JSON Schema alternative to the OpenAPI `parameters`.
  if ('parametersJsonSchema' in doc && 'name' in doc) {
    return tool('function-declaration', doc, '', 'parametersJsonSchema', false);
  }
  return plain;
}
