/** Reads any supported format into the JSON model, and writes the model out in any format. */
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import type { Document } from 'yaml';
import { ToolInputError } from '#tool-kit';
import { lossyNumber } from '../_shared/json-exact.js';
import { readIni, writeIni } from './ini-format.js';
import {
  checkOutputSize,
  childPath,
  describe,
  isObject,
  type Json,
  MAX_DEPTH,
  parseFailure,
  toJsonModel,
} from './model.js';
import { readBackWarning } from './read-back.js';
import { parseTable, writeTable } from './table-format.js';
import type { Format } from './tool.js';
import { parseXml, writeXml } from './xml-format.js';
import { parseYaml, writeYaml } from './yaml-format.js';

export interface Decoded {
  value: Json;
  warnings: string[];
}

export interface Encoded {
  output: string;
  warnings: string[];
  /** The data as the writer laid it out, when it reshaped it (XML wraps in <root>). */
  written?: Json;
}

function parseJson(text: string): Json {
  try {
    return toJsonModel(JSON.parse(text));
  } catch (err) {
    throw parseFailure('JSON', err);
  }
}

/** One JSON value per line; blank lines (JSON whitespace only: not trim(), which drops U+00A0) are skipped. */
export function parseNdjson(text: string): Json[] {
  const values: unknown[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (/^[ \t\r]*$/.test(line)) return;
    try {
      values.push(JSON.parse(line));
    } catch (err) {
      throw new ToolInputError(`input is not valid NDJSON: line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return toJsonModel(values) as Json[];
}

function writeNdjson(value: Json): string {
  if (!Array.isArray(value)) {
    throw new ToolInputError(
      `NDJSON needs a top-level array (one JSON value per line); the data is ${describe(value)}`,
    );
  }
  return value.map((item) => `${JSON.stringify(item)}\n`).join('');
}

function parseTomlText(text: string): Json {
  try {
    return toJsonModel(parseToml(text, { maxDepth: MAX_DEPTH }));
  } catch (err) {
    throw parseFailure('TOML', err);
  }
}

/** TOML has no null, and smol-toml silently drops a null value: refuse it with its path. */
function findNull(value: Json, path: string): string | null {
  if (value === null) return path;
  if (typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = findNull(item, childPath(path, key));
    if (found !== null) return found;
  }
  return null;
}

function writeToml(value: Json): string {
  if (!isObject(value)) {
    throw new ToolInputError(`TOML needs a top-level table (an object); the data is ${describe(value)}`);
  }
  const nullAt = findNull(value, '');
  if (nullAt !== null) throw new ToolInputError(`TOML has no null; the value at ${nullAt} is null`);
  try {
    return stringifyToml(value);
  } catch (err) {
    // smol-toml throws a RangeError for a key with a lone surrogate (TOML text is Unicode).
    throw new ToolInputError(`the data cannot be written as TOML: ${(err as Error).message}`);
  }
}

/** `yamlDocuments`: YAML already parsed from this text by detection. */
export function decode(format: Format, text: string, yamlDocuments?: Document[]): Decoded {
  switch (format) {
    case 'json':
      return { value: parseJson(text), warnings: lossyWarnings(text) };
    case 'ndjson':
      return { value: parseNdjson(text), warnings: lossyWarnings(text) };
    case 'yaml':
      return parseYaml(text, yamlDocuments);
    case 'toml':
      return { value: parseTomlText(text), warnings: [] };
    case 'csv':
      return { value: parseTable(text, ','), warnings: [] };
    case 'tsv':
      return { value: parseTable(text, '\t'), warnings: [] };
    case 'xml':
      return { value: parseXml(text), warnings: [] };
    case 'ini':
      return readIni(text);
  }
}

/**
 * A JSON number a double cannot hold (a big integer, a long decimal) is read as the nearest
 * double, as every JSON reader of JavaScript does: said once, rather than changed silently.
 */
function lossyWarnings(text: string): string[] {
  const token = lossyNumber(text);
  if (token === undefined) return [];
  return [
    `the number ${token.slice(0, 40)} has no exact double form: it is written as ${JSON.stringify(Number(token))} (send such values as strings)`,
  ];
}

function encodeUnchecked(format: Format, value: Json): Encoded {
  switch (format) {
    case 'json':
      return { output: `${JSON.stringify(value, null, 2)}\n`, warnings: [] };
    case 'ndjson':
      return { output: writeNdjson(value), warnings: [] };
    case 'yaml':
      return { output: writeYaml(value), warnings: [] };
    case 'toml':
      return { output: writeToml(value), warnings: [] };
    case 'csv':
      return { output: writeTable(value, ','), warnings: [] };
    case 'tsv':
      return { output: writeTable(value, '\t'), warnings: [] };
    case 'xml':
      return writeXml(value);
    case 'ini':
      return writeIni(value);
  }
}

/**
 * Formats whose output is read back here, a difference becoming a warning (they cannot hold
 * every JSON value). JSON and NDJSON hold all of it; so does YAML, whose writer reads its own
 * output back and writes it another way when it differs (writeYaml).
 */
const READ_BACK: ReadonlySet<Format> = new Set(['toml', 'csv', 'tsv', 'xml', 'ini']);

export function encode(format: Format, value: Json): Encoded {
  const encoded = encodeUnchecked(format, value);
  checkOutputSize(format, encoded.output);
  if (READ_BACK.has(format)) {
    let back: Json;
    try {
      back = decode(format, encoded.output).value;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ToolInputError(
        `the data cannot be written as ${format}: the output does not read back (${reason})`,
      );
    }
    const warning = readBackWarning(format, encoded.written ?? value, back);
    if (warning) encoded.warnings.push(warning);
  }
  return { output: encoded.output, warnings: encoded.warnings };
}
