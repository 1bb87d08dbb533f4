/** Turns `left`/`right` (JSON text, YAML text or a JSON value) into a checked JSON value. */
import type { Document } from 'yaml';
import { ToolInputError } from '#tool-kit';
// Stops at the first YAML error (non-YAML text used to take seconds); see the file.
import { parseYamlFailFast, type YamlOptions } from '../_shared/yaml-fail-fast.js';
import { findDuplicateKey, yamlDepthExceeds } from '../_shared/yaml-guards.js';
import { inexactJsonNumbers, inexactYamlNumbers } from './precision.js';
import { MAX_DOCUMENT_BYTES } from './tool.js';

export const MAX_DEPTH = 100;
export const MAX_NODES = 1_000_000;
/** Alias expansions allowed: real files use a few; alias bombs need thousands. */
export const MAX_ALIAS_COUNT = 50;

export type Source = 'json' | 'yaml' | 'value';

const YAML_OPTIONS: YamlOptions = {
  schema: 'core',
  resolveKnownTags: false, // no !!binary, !!set, !!timestamp: JSON-shaped values only
  merge: false,
  uniqueKeys: false, // checked by findDuplicateKey in linear time
  logLevel: 'silent',
};

function pointer(path: string): string {
  return path === '' ? '(root)' : path;
}

/** Checks that a value is plain JSON within the depth and size bounds (no copy is made). */
function checkJson(value: unknown, field: string): void {
  let nodes = 0;
  const walk = (v: unknown, path: string, depth: number): void => {
    nodes += 1;
    if (nodes > MAX_NODES) throw new ToolInputError(`${field} holds more than ${MAX_NODES} values`);
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) return;
      // 1e400 is valid JSON text but parses to Infinity, which cannot be compared or patched.
      throw new ToolInputError(
        `${field} has ${String(v)} at ${pointer(path)}: numbers must fit a 64-bit float (at most ~1.8e308)`,
      );
    }
    if (typeof v !== 'object') throw new ToolInputError(`${field} has a ${typeof v} at ${pointer(path)}`);
    if (depth >= MAX_DEPTH) throw new ToolInputError(`${field} is nested deeper than ${MAX_DEPTH} levels`);
    const entries = Array.isArray(v) ? v.entries() : Object.entries(v);
    for (const [key, item] of entries) {
      // JSON Patch libraries refuse to touch these keys (prototype pollution guard), so
      // a document holding one cannot be diffed into a patch: say so up front.
      if (key === '__proto__') {
        throw new ToolInputError(
          `${field} has a "__proto__" key at ${pointer(path) || '/'}, which is not supported`,
        );
      }
      walk(item, `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`, depth + 1);
    }
  };
  walk(value, '', 0);
}

/** A parsed document; `inexact`: numbers as written that a double does not hold exactly. */
export interface ReadDocument {
  value: unknown;
  source: Source;
  inexact: string[];
}

function parseYaml(text: string, field: string): { value: unknown; inexact: string[] } {
  if (yamlDepthExceeds(text, MAX_DEPTH + 1)) {
    throw new ToolInputError(`${field} is nested deeper than ${MAX_DEPTH} levels`);
  }
  let docs: Document[];
  try {
    docs = parseYamlFailFast(text, YAML_OPTIONS);
  } catch (err) {
    if (err instanceof RangeError) throw err;
    const reason = (err as Error).message.split('\n', 1)[0]!.replace(/:\s*$/, '');
    throw new ToolInputError(`${field} is neither valid JSON nor valid YAML: ${reason}`);
  }
  if (docs.length !== 1) {
    throw new ToolInputError(`${field} holds ${docs.length} YAML documents; give exactly one`);
  }
  const doc = docs[0]!;
  const duplicate = findDuplicateKey(doc);
  if (duplicate !== null)
    throw new ToolInputError(`${field} is not valid YAML: the key "${duplicate}" appears twice`);
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), inexact: inexactYamlNumbers(doc) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof ReferenceError && /alias/i.test(message)) {
      throw new ToolInputError(`${field} is refused: its YAML aliases expand too much (${message})`);
    }
    throw new ToolInputError(`${field} is not valid YAML: ${message.split('\n', 1)[0]}`);
  }
}

/** A document the input schema passed: present, and as text at most MAX_DOCUMENT_BYTES characters. */
export function readDocument(value: unknown, field: string): ReadDocument {
  if (typeof value !== 'string') {
    checkJson(value, field);
    return { value, source: 'value', inexact: [] };
  }
  // Characters are the schema's; multi-byte ones can still make the text too large.
  if (Buffer.byteLength(value, 'utf8') > MAX_DOCUMENT_BYTES) {
    throw new ToolInputError(`${field} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  }
  const text = value.startsWith('\uFEFF') ? value.slice(1) : value;
  if (text.trim() === '') {
    throw new ToolInputError(`${field} is empty; send the JSON text null to compare with null`);
  }
  let parsed: ReadDocument;
  try {
    parsed = { value: JSON.parse(text), source: 'json', inexact: [] };
  } catch {
    try {
      parsed = { ...parseYaml(text, field), source: 'yaml' };
    } catch (err) {
      // A stack overflow in the parser is reported as what it is: too much nesting.
      if (err instanceof RangeError) throw new ToolInputError(`${field} is nested too deeply`);
      throw err;
    }
  }
  checkJson(parsed.value, field);
  if (parsed.source === 'json') parsed.inexact = inexactJsonNumbers(text);
  return parsed;
}
