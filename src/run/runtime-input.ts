import type { ErrorObject } from 'ajv';
import { ownAjv } from '../ajv.js';
import { HubError } from '../errors.js';
import { SOURCES, type Source } from '../run-meta.js';
import { nonFinitePlaces } from '../shared/non-finite.js';
import { quote } from '../shared/quote.js';
import type { GenericInput } from './input.js';

export interface RuntimeCall {
  toolId: string;
  source: Source;
  generic: GenericInput;
}

const INPUT_KEYS = ['a', 'b', 'c', 'mode'] as const;

/** A generic member: text, or a value taken as its text (numbers, booleans) or JSON text (objects). */
const member = {
  type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
  description: 'A string; numbers and booleans are taken as their text, JSON values as their JSON text',
};
const common = {
  toolId: { type: 'string', minLength: 1, description: 'The tool to run' },
  // "default api" is said, not declared: the code fills it in, and a declared default would make
  // openapi-typescript require `source` in every generated runtime call (docs/api.md, "Client generation").
  source: { enum: [...SOURCES], description: 'Who is calling (default api)' },
};
const members = {
  a: member,
  b: member,
  c: member,
  mode: { type: ['string', 'null'], description: 'The tool mode' },
  options: {
    type: ['object', 'string'],
    description:
      'The tool\'s other named fields, those a, b and c do not carry (its SKILL.md lists them), as an object or its JSON text (docs/api.md, "Options")',
  },
};

/** The two accepted POST bodies of the generic runtime endpoint (docs/api.md); the OpenAPI document shows these. */
export const RUNTIME_SCHEMAS = {
  RuntimeRequestNested: {
    type: 'object',
    additionalProperties: false,
    required: ['toolId', 'input'],
    properties: {
      ...common,
      input: { type: 'object', additionalProperties: false, required: ['a'], properties: members },
    },
  },
  RuntimeRequestFlat: {
    type: 'object',
    additionalProperties: false,
    required: ['toolId', 'a'],
    properties: { ...common, ...members },
  },
} as const;

const ajv = ownAjv();
const validateNested = ajv.compile(RUNTIME_SCHEMAS.RuntimeRequestNested);
const validateFlat = ajv.compile(RUNTIME_SCHEMAS.RuntimeRequestFlat);

/**
 * Reads a generic runtime call from a GET query or a POST body: nested when `input`
 * is present, flat otherwise (docs/api.md), each checked by its schema above.
 */
export function readRuntimeCall(raw: unknown, from: 'query' | 'body'): RuntimeCall {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new HubError('INVALID_INPUT', 'the request body must be a JSON object with toolId and input');
  }
  const obj = raw as Record<string, unknown>;
  if (from === 'query') {
    const repeated = Object.keys(obj).find((k) => Array.isArray(obj[k]));
    if (repeated) throw new HubError('INVALID_INPUT', `parameter ${quote(repeated)} is given more than once`);
  }
  const nested = 'input' in obj;
  if (nested) {
    // Mixing both shapes is ambiguous: say so rather than "unknown field".
    const mixed = [...INPUT_KEYS, 'options'].find((k) => k in obj);
    if (mixed)
      throw new HubError('INVALID_INPUT', `${quote(mixed)} given both at the top level and in input`);
  }
  const validate = nested ? validateNested : validateFlat;
  if (!validate(obj)) throw new HubError('INVALID_INPUT', describe(validate.errors?.[0], from));
  const source = (obj.source ?? 'api') as Source;
  const values = (nested ? obj.input : obj) as Record<string, unknown>;
  const generic: GenericInput = {};
  for (const key of INPUT_KEYS) {
    const value = values[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') {
      generic[key] = value;
      continue;
    }
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    // A number past a double's range (1e400 parses to Infinity) has no text a tool could read
    // back: JSON would write null, String() "Infinity". Refused rather than changed.
    if ((typeof value === 'number' || text.includes('null')) && nonFinitePlaces(value).length > 0)
      throw tooBig(key);
    generic[key] = text;
  }
  if (generic.a === undefined) throw new HubError('INVALID_INPUT', `'a' is required (the tool's main input)`);
  if (values.options !== undefined) generic.options = readOptions(values.options);
  return { toolId: obj.toolId as string, source, generic };
}

function tooBig(key: string): HubError {
  return new HubError(
    'INVALID_INPUT',
    `${key} holds a number past a double's range (such as 1e400), which has no JSON text: send ${key} as a string`,
  );
}

/** `options` as an object: given as one (a POST body) or as its JSON text (a GET query). */
function readOptions(raw: unknown): Record<string, unknown> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new HubError('INVALID_INPUT', 'options must be a JSON object of named fields (not valid JSON)');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HubError('INVALID_INPUT', 'options must be a JSON object of named fields');
  return value as Record<string, unknown>;
}

function describe(err: ErrorObject | undefined, from: 'query' | 'body'): string {
  if (!err) return 'invalid request';
  const at = err.instancePath.replace(/^\//, '').replaceAll('/', '.');
  switch (err.keyword) {
    case 'required': {
      const name = String(err.params.missingProperty);
      if (name === 'toolId') return 'toolId is required (a string)';
      if (name === 'a') return `'a' is required (the tool's main input)`;
      return `${at ? `${at}.` : ''}${name} is required`;
    }
    case 'additionalProperties': {
      const extra = `${at ? `${at}.` : ''}${String(err.params.additionalProperty)}`;
      return `unknown ${from === 'query' ? 'parameter' : 'field'} ${quote(extra)}`;
    }
    case 'enum':
      return `${at} must be one of: ${(err.params.allowedValues as string[]).join(', ')}`;
    default:
      return `${at || 'body'} ${err.message ?? 'is invalid'}`;
  }
}
