import { quote, ToolInputError } from '#tool-kit';

export const MAX_PATTERN_LENGTH = 256;
export const MAX_PATTERN_OUTPUT = 1000;
const MAX_REPEAT = 1000;
const MAX_CLASS_WIDTH = 2048;
/** json-schema-faker's regex generator repeats `*` and `+` at most 5 times, `{n,}` n+5 times. */
const OPEN_REPEAT = 5;

/**
 * Refuses a `pattern` whose generated strings could be huge: json-schema-faker expands
 * `a{1000000}` in full (and every character range into an array) before any length cap.
 * This mirrors its regex grammar loosely to compute an upper bound; it never runs the regex.
 */
export function checkPattern(pattern: string): void {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new ToolInputError(`pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  checkSyntax(pattern);
  const scan = { s: pattern, i: 0, width: 0 };
  let length = 0;
  // A stray `)` ends a group that never opened; keep counting past it.
  while (scan.i < pattern.length) {
    length += alternation(scan);
    if (pattern[scan.i] === ')') scan.i++;
  }
  if (length > MAX_PATTERN_OUTPUT) {
    throw new ToolInputError(
      `pattern ${JSON.stringify(pattern.slice(0, 60))} could generate strings over ${MAX_PATTERN_OUTPUT} characters`,
    );
  }
  if (scan.width > MAX_CLASS_WIDTH) throw new ToolInputError('pattern character classes are too wide');
}

/**
 * A pattern no regular expression engine reads (`(`, `[a-`) is a schema error, refused as
 * one rather than mocked as an empty string. ECMA-262 with the `u` flag (ajv's reading), or
 * without it, as some schemas are written for that; building a RegExp never runs it.
 */
function checkSyntax(pattern: string): void {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return;
    } catch (err) {
      if (flags === '')
        throw new ToolInputError(
          `pattern ${quote(pattern)} is not a valid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: \/.*\/\w*: /, '')}`,
        );
    }
  }
}

interface Scan {
  s: string;
  i: number;
  width: number;
}

function alternation(sc: Scan): number {
  let best = sequence(sc);
  while (sc.s[sc.i] === '|') {
    sc.i++;
    best = Math.max(best, sequence(sc));
  }
  return best;
}

function sequence(sc: Scan): number {
  let total = 0;
  while (sc.i < sc.s.length && sc.s[sc.i] !== '|' && sc.s[sc.i] !== ')') {
    const atomLength = atom(sc);
    total += atomLength * repeat(sc);
  }
  return total;
}

function atom(sc: Scan): number {
  const ch = sc.s[sc.i]!;
  sc.i++;
  if (ch === '(') {
    if (sc.s[sc.i] === '?')
      sc.i += sc.s[sc.i + 1] === '<' && !'=!'.includes(sc.s[sc.i + 2] ?? '') ? groupName(sc) : 2;
    const inner = alternation(sc);
    if (sc.s[sc.i] === ')') sc.i++;
    return inner;
  }
  if (ch === '[') return charClass(sc);
  if (ch === '\\') {
    sc.i++;
    return 1;
  }
  return ch === '^' || ch === '$' ? 0 : 1;
}

function groupName(sc: Scan): number {
  const end = sc.s.indexOf('>', sc.i);
  return end < 0 ? sc.s.length - sc.i : end - sc.i + 1;
}

function charClass(sc: Scan): number {
  if (sc.s[sc.i] === '^') sc.i++;
  while (sc.i < sc.s.length && sc.s[sc.i] !== ']') {
    const from = sc.s[sc.i] === '\\' ? sc.s[++sc.i] : sc.s[sc.i];
    sc.i++;
    if (sc.s[sc.i] === '-' && sc.s[sc.i + 1] !== ']' && sc.i + 1 < sc.s.length) {
      const to = sc.s[sc.i + 1] === '\\' ? sc.s[sc.i + 2] : sc.s[sc.i + 1];
      sc.i += sc.s[sc.i + 1] === '\\' ? 3 : 2;
      sc.width += Math.max(0, (to ?? '').charCodeAt(0) - (from ?? '').charCodeAt(0) + 1);
    } else sc.width += 1;
  }
  sc.i++;
  return 1;
}

function repeat(sc: Scan): number {
  const ch = sc.s[sc.i];
  let max = 1;
  if (ch === '*' || ch === '+') {
    max = OPEN_REPEAT;
    sc.i++;
  } else if (ch === '?') sc.i++;
  else if (ch === '{') {
    const m = /^\{(\d+)(?:,(\d*))?\}/.exec(sc.s.slice(sc.i));
    if (!m) return 1;
    const min = Number(m[1]);
    max = m[2] === undefined ? min : m[2] === '' ? min + OPEN_REPEAT : Number(m[2]);
    if (min > MAX_REPEAT || max > MAX_REPEAT) {
      throw new ToolInputError(`pattern repeats more than ${MAX_REPEAT} times`);
    }
    sc.i += m[0].length;
  } else return 1;
  if (sc.s[sc.i] === '?' || sc.s[sc.i] === '+') sc.i++;
  return max;
}
