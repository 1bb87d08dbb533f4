import { codeBlock, el, member, text } from './dom.js';
import type { View } from './views.js';

const number = (n: number) => n.toLocaleString('en');
const counted = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;

/** Token pieces listed on the page; the folded JSON answer holds every one the tool listed. */
const PIECES_SHOWN = 500;

/** The count as the headline, what it was counted with, the limit's verdict, then the pieces (tokens mode). */
export const tokenView: View = (result) => {
  const tokens = member(result, 'tokens');
  if (typeof tokens !== 'number') return null;
  const model = text(member(result, 'model'));
  const encoding = text(member(result, 'encoding'));
  const characters = member(result, 'characters');
  const bytes = member(result, 'bytes');
  const facts = [
    model ? `${model} (${encoding})` : encoding,
    typeof characters === 'number' ? counted(characters, 'character', 'characters') : '',
    typeof bytes === 'number' ? counted(bytes, 'byte', 'bytes') : '',
  ].filter(Boolean);
  const limit = member(result, 'limit');
  const remaining = member(result, 'remaining');
  const pieces = member(result, 'pieces');
  const listed = Array.isArray(pieces) ? pieces.slice(0, PIECES_SHOWN) : [];
  return el(
    'div',
    {},
    el('p', { class: 'headline' }, el('strong', {}, number(tokens)), ` ${tokens === 1 ? 'token' : 'tokens'}`),
    el('p', { class: 'hint' }, facts.join(' · ')),
    typeof limit === 'number' && typeof remaining === 'number'
      ? el(
          'p',
          { class: remaining >= 0 ? 'verdict within' : 'verdict over' },
          remaining >= 0
            ? `Within the limit of ${number(limit)}: ${counted(remaining, 'token', 'tokens')} left.`
            : `Over the limit of ${number(limit)} by ${counted(-remaining, 'token', 'tokens')}.`,
        )
      : null,
    listed.length
      ? el(
          'ol',
          { class: 'pieces', 'aria-label': 'Tokens' },
          ...listed.map((p) => el('li', {}, el('code', {}, String(p)))),
        )
      : null,
    Array.isArray(pieces) && pieces.length > listed.length
      ? el('p', { class: 'hint' }, `The first ${number(PIECES_SHOWN)} tokens; the JSON answer lists more.`)
      : null,
  );
};

/** The generated schema, ready to copy, after its warnings. */
export const schemaView: View = (result) => {
  const schema = member(result, 'schema');
  if (typeof schema !== 'object' || schema === null) return null;
  const warnings = member(result, 'warnings');
  return el(
    'div',
    {},
    Array.isArray(warnings) && warnings.length
      ? el('ul', { class: 'notes' }, ...warnings.map((w) => el('li', {}, String(w))))
      : null,
    codeBlock(JSON.stringify(schema, null, 2), 'schema'),
  );
};

/** The verdict, then each problem at its JSON Pointer. */
export const validatorView: View = (result, mode) => {
  const valid = member(result, 'valid');
  if (typeof valid !== 'boolean') return null;
  const errors = member(result, 'errors');
  const total = member(result, 'errorCount');
  const what = mode === 'schema' ? 'The schema' : 'The target';
  return el(
    'div',
    {},
    el(
      'p',
      { class: valid ? 'big verdict within' : 'big verdict over' },
      valid
        ? `${what} is valid.`
        : `${what} is not valid: ${counted(typeof total === 'number' ? total : 0, 'problem', 'problems')}.`,
    ),
    Array.isArray(errors) && errors.length
      ? el(
          'ul',
          { class: 'problems' },
          ...errors.map((e) =>
            el(
              'li',
              {},
              el('code', {}, text(member(e, 'path')) || '(root)'),
              ` ${text(member(e, 'keyword'))}: ${text(member(e, 'message'))}`,
            ),
          ),
        )
      : null,
  );
};
