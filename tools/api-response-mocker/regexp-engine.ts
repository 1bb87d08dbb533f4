import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';

/**
 * Escapes that change meaning with the `u` flag, and surrogate code units (a literal
 * astral character is one atom with `u` and two without).
 */
const UNICODE_ONLY = /\\[pP]|\\u\{|\\u[dD][89a-fA-F]|[\uD800-\uDFFF]/;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * A user pattern as ajv tests it. ajv compiles `pattern` and `patternProperties` with the
 * `u` flag, and V8 backtracks a `u` regex without limit: its fallback to a linear-time
 * engine after excessive backtracking (turned on process-wide in src/pool/pool.ts) skips
 * `u` regexes. A pattern valid with `u` and free of the escapes above matches a string
 * without surrogates exactly as it does without `u`, so such strings (all generated ones
 * in practice) are tested without it, where the fallback applies.
 */
class UserPattern implements RegExpLike {
  constructor(
    private readonly unicode: RegExp,
    private readonly plain: RegExp | undefined,
  ) {}

  test(s: string): boolean {
    return this.plain !== undefined && !SURROGATE.test(s) ? this.plain.test(s) : this.unicode.test(s);
  }

  /** ajv keys its compiled patterns by this text. */
  toString(): string {
    return String(this.unicode);
  }
}

function compile(pattern: string, flags: string): RegExpLike {
  let unicode: RegExp;
  try {
    unicode = new RegExp(pattern, flags);
  } catch (err) {
    // `\-` or `\a` is an error with `u` only; the generator read the pattern without it,
    // so the body is checked the same way rather than not at all.
    if (!flags.includes('u')) throw err;
    return new RegExp(pattern, flags.replace('u', ''));
  }
  const plain =
    flags.includes('u') && !UNICODE_ONLY.test(pattern)
      ? new RegExp(pattern, flags.replace('u', ''))
      : undefined;
  return new UserPattern(unicode, plain);
}

export const regExpEngine: RegExpEngine = Object.assign(compile, { code: 'userPattern' });
