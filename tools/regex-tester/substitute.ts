/**
 * Replacement with a bound on the output size. The native String.prototype.replace would
 * build an output of any size (a `$'` repeated on every match grows quadratically), so the
 * replacement template is expanded here, by the spec's GetSubstitution rules, while counting.
 */
import { ToolInputError } from '#tool-kit';
import { execAll, type MatchBudget } from './exec-all.js';

export const MAX_OUTPUT_CHARS = 1_048_576;

class Output {
  private readonly pieces: string[] = [];
  private size = 0;
  push(piece: string): void {
    this.size += piece.length;
    if (this.size > MAX_OUTPUT_CHARS) {
      throw new ToolInputError(`the replaced text would exceed ${MAX_OUTPUT_CHARS} characters`);
    }
    this.pieces.push(piece);
  }
  toString(): string {
    return this.pieces.join('');
  }
}

/** GetSubstitution (ECMA-262 22.1.3.19.1): $$, $&, $`, $', $n, $nn, $<name>. */
function substitute(m: RegExpExecArray, text: string, position: number, template: string, out: Output): void {
  const captures = m.length - 1;
  let i = 0;
  while (i < template.length) {
    const dollar = template.indexOf('$', i);
    if (dollar === -1 || dollar === template.length - 1) {
      out.push(template.slice(i));
      return;
    }
    out.push(template.slice(i, dollar));
    const next = template.charAt(dollar + 1);
    i = dollar + 2;
    if (next === '$') out.push('$');
    else if (next === '&') out.push(m[0]);
    else if (next === '`') out.push(text.slice(0, position));
    else if (next === "'") out.push(text.slice(Math.min(position + m[0].length, text.length)));
    else if (next >= '0' && next <= '9') {
      const two = template.charAt(dollar + 2);
      let index = Number(next);
      if (two >= '0' && two <= '9' && Number(next + two) <= captures) {
        index = Number(next + two);
        i = dollar + 3;
      }
      if (index >= 1 && index <= captures) out.push(m[index] ?? '');
      else out.push(template.slice(dollar, i));
    } else if (next === '<' && m.groups !== undefined) {
      const close = template.indexOf('>', dollar + 2);
      if (close === -1) out.push('$<');
      else {
        out.push(m.groups[template.slice(dollar + 2, close)] ?? '');
        i = close + 1;
      }
    } else out.push(`$${next}`);
  }
}

export interface Replaced {
  output: string;
  /** Number of matches replaced. */
  replacements: number;
  /** The budget ran out: the matches found so far are replaced, the rest of the text is kept. */
  timedOut: boolean;
}

/** Same result as text.replace(regex, template), refused past MAX_OUTPUT_CHARS. */
export function replaceBounded(
  regex: RegExp,
  text: string,
  template: string,
  budget: MatchBudget = { deadline: Infinity, timedOut: false },
): Replaced {
  const out = new Output();
  let next = 0;
  let replacements = 0;
  for (const m of execAll(regex, text, budget)) {
    const position = Math.max(Math.min(m.index, text.length), 0);
    if (position < next) continue;
    out.push(text.slice(next, position));
    substitute(m, text, position, template, out);
    next = position + m[0].length;
    replacements++;
  }
  out.push(text.slice(next));
  return { output: out.toString(), replacements, timedOut: budget.timedOut };
}
