/** Reads the pattern (bare or `/pattern/flags`) and the flags, and compiles a native RegExp. */
import { ToolInputError } from '#tool-kit';

/** The `v` flag (unicode sets) exists from V8 11.2 (Node 20); checked once at load. */
function engineSupportsV(): boolean {
  // Built from a variable: a /(?:)/v literal would be a syntax error on engines without v.
  const flag: string = 'v';
  try {
    new RegExp('', flag);
    return true;
  } catch {
    return false;
  }
}
export const SUPPORTED_FLAGS = `dgimsuy${engineSupportsV() ? 'v' : ''}`;

export interface CompiledPattern {
  regex: RegExp;
  source: string;
  flags: string;
  /** Where the flags came from: the `flags` field, the `/pattern/flags` literal, or none. */
  flagsFrom: 'field' | 'literal' | 'none';
}

const QUOTED_PATTERN_MAX = 200;

/** The engine's message, with the pattern it quotes (up to 32768 characters) shortened. */
export function engineMessage(err: Error): string {
  const m = /^Invalid regular expression: \/([\s\S]*)\/([a-z]*): ([^:]*)$/.exec(err.message);
  if (!m || (m[1] as string).length <= QUOTED_PATTERN_MAX) return err.message;
  return `Invalid regular expression: /${(m[1] as string).slice(0, QUOTED_PATTERN_MAX)}…/${m[2]}: ${m[3]}`;
}

/**
 * What the engine refuses when it compiles a pattern (lazily, on its first exec) or runs it:
 * INVALID_INPUT in the engine's words; null for any other error. V8 unrolls a counted repeat
 * of a group that can match empty (`((a*){999999}){9}`), and a large enough one overflows its
 * stack with a RangeError rather than a SyntaxError.
 */
export function engineRefusal(err: unknown): ToolInputError | null {
  if (err instanceof SyntaxError) return new ToolInputError(engineMessage(err));
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return new ToolInputError(
      'the engine ran out of stack compiling or running this pattern (Maximum call stack size exceeded): make its counted repeats ({n}) or its nesting smaller',
    );
  }
  return null;
}

const LITERAL = /^\/([\s\S]+)\/([dgimsuyv]*)$/;

function checkFlags(flags: string): void {
  const seen = new Set<string>();
  for (const flag of flags) {
    if (!SUPPORTED_FLAGS.includes(flag)) {
      throw new ToolInputError(
        `flag '${flag}' is not supported; supported: ${SUPPORTED_FLAGS.split('').join(', ')}`,
      );
    }
    if (seen.has(flag)) throw new ToolInputError(`flag '${flag}' is repeated in '${flags}'`);
    seen.add(flag);
  }
}

/**
 * `/pattern/flags` is read as a literal when the text starts with `/` and ends with `/`
 * plus flag letters only (so a bare path such as /usr/bin stays a bare pattern). A non-empty `flags` field replaces the
 * literal's flags rather than adding to them, so a caller can always state them exactly.
 */
export function compilePattern(pattern: string, flagsField: string | undefined): CompiledPattern {
  const literal = LITERAL.exec(pattern);
  const source = literal ? (literal[1] as string) : pattern;
  let flags = '';
  let flagsFrom: CompiledPattern['flagsFrom'] = 'none';
  if (flagsField) {
    flags = flagsField;
    flagsFrom = 'field';
  } else if (literal && literal[2] !== '') {
    flags = literal[2] as string;
    flagsFrom = 'literal';
  }
  checkFlags(flags);
  try {
    const regex = new RegExp(source, flags);
    return { regex, source, flags: regex.flags, flagsFrom };
  } catch (err) {
    // The engine's own message, e.g. "Invalid regular expression: /(/: Unterminated group".
    throw new ToolInputError(engineMessage(err as Error));
  }
}
