/**
 * An independent check of recheck's attack strings: a tiny backtracking matcher (the
 * textbook algorithm V8's irregexp, PCRE and Java use) that counts its steps. It reads the
 * subset of the syntax the published vectors use: literals, escapes, classes, `.`, groups
 * (capturing or `(?:`), alternation, greedy and lazy `* + ? {n} {n,} {n,m}`, `^` and `$`
 * (without the m flag). Backreferences and lookarounds are refused. Only single characters
 * are tested with a native RegExp (class membership); every choice and backtrack is this
 * matcher's own, so its step counts do not come from recheck or from V8's backtracker.
 * Test code only (the name keeps it out of the build).
 */

type Node =
  | { k: 'chr'; test: (c: string) => boolean }
  | { k: 'seq'; xs: Node[] }
  | { k: 'alt'; xs: Node[] }
  | { k: 'rep'; x: Node; min: number; max: number; lazy: boolean }
  | { k: 'bol' }
  | { k: 'eol' };

export class StepCap extends Error {}

export function parse(source: string, flags: string): Node {
  const atomFlags = flags.replace(/[^isu]/g, '');
  let i = 0;
  const atom = (text: string): Node => {
    const re = new RegExp(`^(?:${text})$`, atomFlags);
    return { k: 'chr', test: (c) => re.test(c) };
  };
  const alt = (): Node => {
    const xs = [seq()];
    while (source[i] === '|') {
      i++;
      xs.push(seq());
    }
    return xs.length === 1 ? (xs[0] as Node) : { k: 'alt', xs };
  };
  const seq = (): Node => {
    const xs: Node[] = [];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') xs.push(quantified(term()));
    return { k: 'seq', xs };
  };
  const term = (): Node => {
    const c = source[i] as string;
    if (c === '(') {
      i++;
      if (source[i] === '?') {
        if (source[i + 1] !== ':') throw new Error(`unsupported group at ${i}`);
        i += 2;
      }
      const inner = alt();
      if (source[i] !== ')') throw new Error('unterminated group');
      i++;
      return inner;
    }
    if (c === '^') {
      i++;
      return { k: 'bol' };
    }
    if (c === '$') {
      i++;
      return { k: 'eol' };
    }
    if (c === '[') {
      const start = i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (source[i] !== ']') {
        if (i >= source.length) throw new Error('unterminated class');
        i += source[i] === '\\' ? 2 : 1;
      }
      i++;
      return atom(source.slice(start, i));
    }
    if (c === '\\') {
      const e = source[i + 1] as string;
      if (/[1-9k]/.test(e)) throw new Error('backreferences are not supported');
      if (/[bB]/.test(e)) throw new Error('word boundaries are not supported');
      const len = e === 'x' ? 4 : e === 'u' ? 6 : e === 'c' ? 3 : 2;
      const text = source.slice(i, i + len);
      i += len;
      return atom(text);
    }
    i++;
    return atom(c === '.' ? '.' : c.replace(/[*+?{}()|[\]\\^$.]/g, '\\$&'));
  };
  const quantified = (x: Node): Node => {
    let min: number;
    let max: number;
    const c = source[i];
    if (c === '*' || c === '+' || c === '?') {
      i++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(i))) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i)) as RegExpExecArray;
      i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    } else return x;
    const lazy = source[i] === '?';
    if (lazy) i++;
    return { k: 'rep', x, min, max, lazy };
  };
  const root = alt();
  if (i !== source.length) throw new Error(`unexpected ${source[i]} at ${i}`);
  return root;
}

/**
 * Steps a backtracking search takes on `text` (every start position, as RegExp.exec does
 * when the match fails), and whether it matched. Throws StepCap past `cap` steps.
 */
export function countSteps(root: Node, text: string, cap: number): { steps: number; matched: boolean } {
  let steps = 0;
  const m = (n: Node, i: number, k: (j: number) => boolean): boolean => {
    if (++steps > cap) throw new StepCap();
    switch (n.k) {
      case 'chr':
        return i < text.length && n.test(text[i] as string) && k(i + 1);
      case 'bol':
        return i === 0 && k(i);
      case 'eol':
        return i === text.length && k(i);
      case 'alt':
        return n.xs.some((x) => m(x, i, k));
      case 'seq': {
        const go = (j: number, at: number): boolean =>
          at === n.xs.length ? k(j) : m(n.xs[at] as Node, j, (next) => go(next, at + 1));
        return go(i, 0);
      }
      case 'rep': {
        const loop = (j: number, count: number): boolean => {
          // An iteration that matches empty once the minimum is met ends the loop (ES spec).
          const more = () =>
            count < n.max &&
            m(n.x, j, (next) => (next === j && count >= n.min ? false : loop(next, count + 1)));
          const done = () => count >= n.min && k(j);
          return n.lazy ? done() || more() : more() || done();
        };
        return loop(i, 0);
      }
    }
  };
  for (let start = 0; start <= text.length; start++)
    if (m(root, start, () => true)) return { steps, matched: true };
  return { steps, matched: false };
}

/** recheck's attack shape with every pump repeated `times`: prefix1 pump1^n prefix2 pump2^n … suffix. */
export function pumped(pumps: { prefix: string; pump: string }[], suffix: string, times: number): string {
  return pumps.map((p) => p.prefix + p.pump.repeat(times)).join('') + suffix;
}
