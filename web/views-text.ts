import { el, member, text } from './dom.js';
import type { View } from './views.js';

/** The text with each match in a <mark> (indexes are UTF-16 offsets, as JavaScript strings are). */
function highlight(subject: string, matches: unknown[]): HTMLElement {
  const pre = el('pre', { class: 'highlight' });
  let at = 0;
  for (const m of matches) {
    const start = member(m, 'index');
    const end = member(m, 'end');
    if (typeof start !== 'number' || typeof end !== 'number' || start < at || end <= start) continue;
    pre.append(subject.slice(at, start), el('mark', {}, subject.slice(start, end)));
    at = end;
  }
  pre.append(subject.slice(at));
  return pre;
}

export const regexView: View = (result, mode, fields) => {
  const count = member(result, 'count');
  switch (mode) {
    case 'match': {
      const matches = member(result, 'matches');
      const list = Array.isArray(matches) ? matches : [];
      return el(
        'div',
        {},
        el('p', {}, `${typeof count === 'number' ? count : list.length} match(es):`),
        highlight(fields.text ?? '', list),
      );
    }
    case 'test':
      return el('p', { class: 'big' }, member(result, 'matched') ? 'The pattern matches.' : 'No match.');
    case 'replace':
      return el('pre', {}, text(member(result, 'output')));
    default: {
      const parts = member(result, 'parts');
      return el(
        'ol',
        { class: 'parts' },
        ...(Array.isArray(parts) ? parts : []).map((p) =>
          el('li', {}, el('code', {}, p === null ? 'null' : String(p))),
        ),
      );
    }
  }
};

const SIGNS: Record<string, string> = { add: '+', remove: '−', replace: '~' };

const show = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));

/** One line per change, coloured by operation and marked with a sign (colour is not the only cue). */
export const diffView: View = (result) => {
  const changes = member(result, 'changes');
  if (member(result, 'equal') === true) return el('p', { class: 'big' }, 'The documents hold the same data.');
  if (!Array.isArray(changes)) return null;
  return el(
    'ul',
    { class: 'diff', 'aria-label': 'Changes' },
    ...changes.map((c) => {
      const op = text(member(c, 'op'));
      const oldValue = show(member(c, 'oldValue'));
      const newValue = show(member(c, 'newValue'));
      return el(
        'li',
        { class: `op-${op}` },
        el('span', { class: 'sign', 'aria-hidden': 'true' }, SIGNS[op] ?? '?'),
        el('span', { class: 'op' }, op),
        ' ',
        el('code', {}, text(member(c, 'path')) || '(root)'),
        oldValue ? el('span', { class: 'old' }, ` ${oldValue}`) : null,
        oldValue && newValue ? ' → ' : null,
        newValue ? el('span', { class: 'new' }, ` ${newValue}`) : null,
      );
    }),
  );
};

export const cronView: View = (result) => {
  const runs = member(result, 'nextRuns');
  return el(
    'div',
    {},
    el(
      'p',
      { class: 'big' },
      el('code', {}, text(member(result, 'expression'))),
      ` ${text(member(result, 'description'))}`,
    ),
    Array.isArray(runs) && runs.length
      ? el(
          'ol',
          { class: 'runs', 'aria-label': 'Next runs' },
          ...runs.map((r) => el('li', {}, el('time', {}, String(r)))),
        )
      : null,
  );
};
