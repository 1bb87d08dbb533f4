/** YAML reading and writing with the `yaml` package, locked to the core (JSON-compatible) schema. */
import { type Document, stringify, type ToStringOptions } from 'yaml';
import { ToolInputError } from '#tool-kit';
import { parseYamlFailFast, type YamlOptions } from '../_shared/yaml-fail-fast.js';
import { findDuplicateKey, yamlDepthExceeds } from '../_shared/yaml-guards.js';
import { checkOutputSize, type Json, MAX_DEPTH, parseFailure, toJsonModel } from './model.js';
import { differences } from './read-back.js';

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

/**
 * The layouts tried in turn: the library's own (plain words, block scalars), then every
 * string and key double-quoted, where escapes spell out any character exactly.
 */
const LAYOUTS: ToStringOptions[] = [
  {},
  { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'QUOTE_DOUBLE' },
];

/**
 * Writes YAML that this tool reads back as the same data, like every other output format.
 * The `yaml` package's default layout is not always readable: a string starting with a space
 * and holding a line break becomes a `|1-` block its own parser rejects at the top level, a
 * line of spaces in a block scalar reads back empty, a leading BOM is dropped. So each layout
 * is read back with this tool's reader and compared; the first that gives the data is returned,
 * and output that does not read back never is.
 */
export function writeYaml(value: Json): string {
  let reason = '';
  for (const layout of LAYOUTS) {
    const output = stringify(value, {
      schema: 'core',
      aliasDuplicateObjects: false,
      lineWidth: 0,
      ...layout,
    });
    checkOutputSize('yaml', output);
    try {
      const found = differences(value, parseYaml(output).value, 1);
      if (found.length === 0) return output;
      reason = found[0]!;
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    }
  }
  throw new ToolInputError(`the data cannot be written as yaml: the output does not read back (${reason})`);
}
