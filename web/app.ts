import { copyButton } from './dom.js';
import { initFilter } from './filter.js';
import { initTryIt } from './try-it.js';

/** Entry of the tool pages' script: each part finds its own markup (the pages work without it). */
const filter = document.querySelector<HTMLElement>('[data-filter]');
if (filter) initFilter(filter);

const form = document.querySelector<HTMLFormElement>('form[data-try-it]');
if (form) initTryIt(form);

for (const pre of document.querySelectorAll<HTMLElement>('pre[data-copyable]')) {
  pre.before(copyButton(() => pre.textContent ?? '', 'curl line'));
}
