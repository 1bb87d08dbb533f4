/**
 * `parseAllDocuments` that stops at the first syntax error. The `yaml` composer records every
 * error and keeps going: a 512 KiB text that is not YAML (NDJSON, a run of quotes) yields
 * hundreds of thousands of errors, each an Error with a stack trace and a pretty-printed
 * excerpt, which took 5 to 30 s. Callers only ever report the first error, so the composer's
 * error hook throws it instead. Used by format-detective and structured-diff.
 */
import {
  Composer,
  type Document,
  type DocumentOptions,
  LineCounter,
  type ParseOptions,
  Parser,
  type SchemaOptions,
} from 'yaml';

/** The first YAML syntax error; the message ends with "at line L, column C" as yaml's own do. */
export class YamlSyntaxError extends Error {
  override name = 'YamlSyntaxError';
}

type ErrorSource = number | [number, number] | { offset: number };
type OnError = (source: ErrorSource, code: string, message: string, warning?: boolean) => void;

function offsetOf(source: ErrorSource): number {
  if (typeof source === 'number') return source;
  return Array.isArray(source) ? source[0] : source.offset;
}

export type YamlOptions = ParseOptions & DocumentOptions & SchemaOptions;

/** Every document of `text`, none with errors; throws YamlSyntaxError at the first error. */
export function parseYamlFailFast(text: string, options: YamlOptions): Document[] {
  const lines = new LineCounter();
  const at = (offset: number): string => {
    const { line, col } = lines.linePos(offset);
    return `at line ${Math.max(line, 1)}, column ${col}`;
  };
  const composer = new Composer(options);
  // `onError` is private in the typings but is the composer's one error sink.
  const hook = composer as unknown as { onError: OnError };
  const record = hook.onError;
  let first: YamlSyntaxError | undefined;
  hook.onError = (source, code, message, warning) => {
    if (warning && !first) return record(source, code, `${message} ${at(offsetOf(source))}`, true);
    // yaml catches errors of nested collections and reports them again: rethrow the first.
    first ??= new YamlSyntaxError(`${message} ${at(offsetOf(source))}`);
    throw first;
  };
  const docs = Array.from(composer.compose(new Parser(lines.addNewLine).parse(text))) as Document[];
  // A few errors (stray tokens between documents) bypass the hook.
  const stray = [...composer.streamInfo().errors, ...docs.flatMap((doc) => doc.errors)][0];
  if (stray) throw new YamlSyntaxError(`${stray.message} ${at(stray.pos[0])}`);
  return docs;
}
