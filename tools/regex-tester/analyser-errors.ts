/**
 * The analyser's errors in the tool's words. recheck is a Scala.js program: a quantifier
 * bound past a Java int throws Java's NumberFormatException ("For input string: …"), and a
 * construct its parser cannot read comes back in the parser's words ("parsing failure (at
 * 5)", "unknown Unicode property-value: Script=Kawi (at 0:15)"). V8 has accepted the pattern
 * by then (run.ts), so each is a pattern the analyser cannot read: INVALID_INPUT saying which
 * part and why (SKILL.md, "Checking a pattern for ReDoS"). Nothing of recheck's text is
 * echoed but the names it quotes from the pattern, cut short.
 */
import { quote, ToolInputError } from '#tool-kit';

/** The largest quantifier bound the analyser reads: a Java int. */
export const MAX_ANALYSED_BOUND = 2 ** 31 - 1;

const EXCERPT_CHARS = 20;

const refuse = (why: string) => new ToolInputError(`analyze: ${why}`);

/** "offset 3 ('{41}…')": where the analyser stopped, as an offset in the pattern and its text from there. */
function at(source: string, start: number, end?: number): string {
  const from = Math.min(Math.max(start, 0), source.length);
  const part = end === undefined ? source.slice(from) : source.slice(from, Math.max(end, from));
  return `offset ${from}${part === '' ? ' (the end)' : ` (${quote(part, EXCERPT_CHARS)})`}`;
}

/** A thrown error that says a quantifier bound is past a Java int; null for any other error. */
export function boundError(source: string, err: unknown): ToolInputError | null {
  const digits = /^For input string: "(\d+)"$/.exec(String((err as Error)?.message ?? ''))?.[1];
  if (digits === undefined) return null;
  // The quantifier as written in the pattern, {n}, {n,}, {n,m}: the first one with that bound.
  const found = new RegExp(`\\{(?:\\d+,)?${digits}(?:,\\d*)?\\}`).exec(source);
  const which =
    found === null
      ? `a quantifier bound (${quote(digits, EXCERPT_CHARS)})`
      : `the quantifier ${quote(found[0], EXCERPT_CHARS)} at offset ${found.index}`;
  return refuse(
    `${which} goes past ${MAX_ANALYSED_BOUND}, the largest bound the analyser reads; lower it, or write * or + where no limit is meant`,
  );
}

/**
 * recheck's `invalid` or `unsupported` answer, whose message ends with where it stopped:
 * "(at n)" or "(at start:end)". Named cases first; any other says where the analyser stopped.
 */
export function unreadable(source: string, message: string): ToolInputError {
  const span = /\(at (\d+)(?::(\d+))?\)$/.exec(message);
  const where = span
    ? ` at ${at(source, Number(span[1]), span[2] === undefined ? undefined : Number(span[2]))}`
    : '';
  const property = /^unknown Unicode property(?:-value)?: /.test(message);
  if (property) {
    return refuse(
      `the analyser does not know the Unicode property${where}, which the engine knows (a script newer than the analyser's Unicode data, or a short alias); analyse the pattern with a character class in its place`,
    );
  }
  if (/^duplicated name /.test(message)) {
    return refuse(
      `the analyser does not read a group name used twice${where}; analyse the pattern with distinct names`,
    );
  }
  return refuse(
    `the analyser ${where ? `stops reading the pattern${where}` : 'cannot read the pattern'}. The engine accepts it, but the analyser reads standard syntax only: not the legacy forms accepted without the u flag (\\u{41} is the letter u 41 times, \\u004 is u004: write u{41} or add the u flag) nor syntax newer than the analyser, such as (?i:…)`,
  );
}
