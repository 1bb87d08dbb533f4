/**
 * Format detection: every format gets a heuristic score in 0..1 (0 = does not parse). A text
 * valid in several formats goes to the most specific one: JSON beats YAML (YAML is a superset),
 * TOML beats INI, and a lone YAML scalar (any plain word is one) scores low. A document that
 * parses but holds nothing (only comments) is still a candidate, at the lowest score: an empty
 * YAML stream first (FORMATS order breaks the tie), then TOML and INI, which read it as {}.
 */

import { parse as parseToml } from 'smol-toml';
import { type Document, isMap, isSeq } from 'yaml';
import { parseNdjson } from './codec.js';
import { iniShape, parseIni } from './ini-format.js';
import { MAX_DEPTH } from './model.js';
import { type Delimiter, readRows } from './table-format.js';
import { FORMATS, type Format } from './tool.js';
import { isXmlCandidate } from './xml-format.js';
import { readYamlDocuments } from './yaml-format.js';

export interface Candidate {
  format: Format;
  confidence: number;
}

/** Score of a document that parses but holds no value (comments; INI sections without keys). */
const EMPTY_DOCUMENT = 0.1;

const isStructured = (v: unknown): boolean => typeof v === 'object' && v !== null;

function scoreJson(text: string): number {
  if (!/^[[{"\-0-9tfn]/.test(text.trimStart())) return 0;
  const value: unknown = JSON.parse(text);
  if (isStructured(value)) return 1;
  return typeof value === 'string' ? 0.9 : 0.6;
}

function scoreNdjson(text: string): number {
  // One value per non-blank line.
  const values = parseNdjson(text);
  const structured = values.every(isStructured);
  if (values.length === 0) return 0;
  if (values.length === 1) return structured ? 0.3 : 0;
  return structured ? 0.95 : 0.7;
}

function scoreYaml(text: string, found: Detection): number {
  // Every JSON text is also YAML 1.2: score it without a second, slower parse.
  const json = found.candidates.find((c) => c.format === 'json');
  if (json) return json.confidence === 1 ? 0.5 : 0.2;
  const docs = readYamlDocuments(text);
  found.yamlDocuments = docs;
  const first = docs[0]?.contents;
  if (!first) return EMPTY_DOCUMENT;
  if (docs.length > 1) return 0.9;
  if (isMap(first) || isSeq(first)) return first.flow ? 0.5 : 0.85;
  return text.trim().includes('\n') ? 0.1 : 0.2;
}

function scoreToml(text: string): number {
  return Object.keys(parseToml(text, { maxDepth: MAX_DEPTH })).length > 0 ? 0.9 : EMPTY_DOCUMENT;
}

function scoreIni(text: string): number {
  const shape = iniShape(text);
  if (!shape) return 0;
  parseIni(text);
  if (shape.assignments === 0) return EMPTY_DOCUMENT;
  return shape.sections > 0 ? 0.8 : 0.7;
}

function scoreTable(text: string, delimiter: Delimiter, full: number, headerOnly: number): number {
  const rows = readRows(text, delimiter);
  if ((rows[0]?.length ?? 0) < 2) return 0;
  return rows.length >= 2 ? full : headerOnly;
}

export interface Detection {
  /** Formats that accept the text, best first (ties in the order of FORMATS). */
  candidates: Candidate[];
  /** The parsed YAML, kept so a conversion does not parse it twice. */
  yamlDocuments?: Document[];
}

const SCORERS: Record<Format, (text: string, found: Detection) => number> = {
  json: scoreJson,
  ndjson: scoreNdjson,
  yaml: scoreYaml,
  toml: scoreToml,
  csv: (text) => scoreTable(text, ',', 0.8, 0.15),
  tsv: (text) => scoreTable(text, '\t', 0.85, 0.25),
  xml: (text) => (isXmlCandidate(text) ? 0.98 : 0),
  ini: scoreIni,
};

export function detect(text: string): Detection {
  const found: Detection = { candidates: [] };
  for (const format of FORMATS) {
    let confidence = 0;
    try {
      confidence = SCORERS[format](text, found);
    } catch {
      // A parse failure simply means "not this format".
    }
    if (confidence > 0) found.candidates.push({ format, confidence });
  }
  found.candidates.sort(
    (x, y) => y.confidence - x.confidence || FORMATS.indexOf(x.format) - FORMATS.indexOf(y.format),
  );
  return found;
}
