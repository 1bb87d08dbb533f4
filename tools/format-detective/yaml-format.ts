/** YAML reading and writing with the `yaml` package, locked to the core (JSON-compatible) schema. */
import { type Document, stringify } from 'yaml';
import { ToolInputError } from '../../src/shared/tool-error.js';
import { parseYamlFailFast, type YamlOptions } from '../_shared/yaml-fail-fast.js';
import { findDuplicateKey, yamlDepthExceeds } from '../_shared/yaml-guards.js';
import { type Json, MAX_DEPTH, parseFailure, toJsonModel } from './model.js';

/** Alias expansions allowed per document: real files use a few; alias bombs need thousands. */
export const MAX_ALIAS_COUNT = 50;

const PARSE_OPTIONS: YamlOptions = {
  schema: 'core',
  // No !!binary, !!set, !!timestamp...: only JSON-shaped values; other tags stay plain strings.
  resolveKnownTags: false,
  merge: false,
  uniqueKeys: false, // checked by findDuplicateKey in linear time
  // Warnings are returned to the caller instead of being printed by the worker.
  logLevel: 'silent',
};

/** Parses every document; throws INVALID_INPUT on the first syntax error. */
export function readYamlDocuments(text: string): Document[] {
  let docs: Document[];
  if (yamlDepthExceeds(text, MAX_DEPTH + 1)) {
    throw new ToolInputError(`input is not accepted as YAML: it is nested deeper than ${MAX_DEPTH} levels`);
  }
  try {
    docs = parseYamlFailFast(text, PARSE_OPTIONS);
  } catch (err) {
    throw parseFailure('YAML', err);
  }
  for (const doc of docs) {
    const duplicate = findDuplicateKey(doc);
    if (duplicate !== null)
      throw new ToolInputError(
        `input is not valid YAML: the key "${duplicate}" appears twice in one mapping`,
      );
  }
  return docs;
}

/** `parsed`: the documents detection already read from this same text. */
export function parseYaml(text: string, parsed?: Document[]): { value: Json; warnings: string[] } {
  const docs = parsed ?? readYamlDocuments(text);
  const warnings = docs.flatMap((doc) =>
    doc.warnings.map((w) => w.message.split('\n', 1)[0]!.replace(/:$/, '')),
  );
  const values = docs.map((doc) => {
    try {
      return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      if (err instanceof ReferenceError && /alias/i.test(err.message)) {
        throw new ToolInputError(
          `input is not accepted as YAML: its aliases expand too much (${err.message}); at most ${MAX_ALIAS_COUNT} alias expansions are allowed`,
        );
      }
      throw parseFailure('YAML', err);
    }
  });
  if (values.length > 1) warnings.push(`the ${values.length} YAML documents were read as one array`);
  const raw = values.length === 0 ? null : values.length === 1 ? values[0] : values;
  return { value: toJsonModel(raw), warnings };
}

export function writeYaml(value: Json): string {
  return stringify(value, { schema: 'core', aliasDuplicateObjects: false, lineWidth: 0 });
}
