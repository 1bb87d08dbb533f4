import { codeBlock, el, member, text } from './dom.js';
import { viewFor } from './views.js';

export interface Answer {
  tool: string;
  mode: string;
  /** The named fields that were sent (views such as the regex highlight need them). */
  fields: Record<string, string>;
  status: number;
  retryAfter: string | null;
  /** The parsed JSON answer, or null when there was none. */
  body: unknown;
  /** Set when no HTTP answer came at all. */
  failure?: string;
}

export function renderRunning(output: HTMLElement): void {
  output.replaceChildren(el('p', { class: 'hint' }, 'Running…'));
}

/**
 * The answer: a view that fits the tool (or the error), then the formatted JSON, folded: on a
 * phone the JSON of a palette is screens long (docs/api.md, "Tool pages"). A success with no
 * view to show has the JSON open, since it is the whole answer then.
 */
export function renderAnswer(output: HTMLElement, answer: Answer): void {
  const { body } = answer;
  const parts: Node[] = [];
  let shown = true;
  if (member(body, 'ok') === true) {
    const ms = member(member(body, 'runtime'), 'durationMs');
    parts.push(
      el(
        'p',
        { class: 'status ok' },
        `OK, HTTP ${answer.status}${typeof ms === 'number' ? `, ran in ${ms} ms` : ''}.`,
      ),
    );
    const view = viewFor(answer.tool, answer.mode, member(body, 'result'), answer.fields);
    if (view) parts.push(view);
    shown = view !== null;
  } else {
    parts.push(errorView(answer));
  }
  if (body !== null) {
    parts.push(
      el(
        'details',
        shown ? { class: 'json' } : { class: 'json', open: '' },
        el('summary', {}, 'JSON answer'),
        codeBlock(JSON.stringify(body, null, 2), 'JSON answer'),
      ),
    );
  }
  output.replaceChildren(...parts);
}

function errorView(answer: Answer): HTMLElement {
  const { body } = answer;
  const code = text(member(body, 'errorCode')) || (answer.failure ? 'NO_ANSWER' : `HTTP ${answer.status}`);
  const message = text(member(body, 'error')) || answer.failure || 'The hub sent no JSON answer.';
  const box = el(
    'div',
    { class: 'status error' },
    el(
      'p',
      {},
      el('strong', {}, 'Error '),
      el('code', { class: 'error-code' }, code),
      answer.status ? ` (HTTP ${answer.status})` : '',
    ),
    el('p', { class: 'error-message' }, message),
  );
  const retry = retryAfter(answer);
  if (retry !== null) {
    const at = new Date(Date.now() + retry * 1000).toLocaleTimeString();
    box.append(el('p', { class: 'retry' }, `Retry after ${retry} s (at ${at}).`));
  }
  return box;
}

/** Seconds to wait: the Retry-After header, else the rateLimit block's retryAfterSec on a 429. */
function retryAfter(answer: Answer): number | null {
  const header = Number(answer.retryAfter);
  if (answer.retryAfter !== null && Number.isFinite(header)) return header;
  const fromBody = member(member(answer.body, 'rateLimit'), 'retryAfterSec');
  return answer.status === 429 && typeof fromBody === 'number' ? fromBody : null;
}
