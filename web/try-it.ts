import { type Answer, renderAnswer, renderRunning } from './answer.js';

interface Endpoint {
  path: string;
  /** The path implies the mode: the mode field is not sent. */
  fixed: boolean;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * The try-it form: the mode select shows the fields of its mode and picks the endpoint;
 * Run posts the named fields as JSON to that dedicated endpoint with source=web, under the
 * same limits as any client, and the answer goes into the page's <output>.
 */
export function initTryIt(form: HTMLFormElement): void {
  const endpoints = JSON.parse(form.dataset.endpoints ?? '{}') as Record<string, Endpoint>;
  const modeName = form.dataset.modeName || null;
  const tool = form.dataset.tool ?? '';
  const select = form.querySelector<HTMLSelectElement>('[data-mode-select]');
  const output = document.querySelector<HTMLOutputElement>('output#answer');
  if (!select || !output) return;
  const keyInput = form.querySelector<HTMLInputElement>('[data-api-key]');
  if (keyInput) rememberKey(keyInput);

  const syncMode = () => {
    for (const wrapper of form.querySelectorAll<HTMLElement>('[data-modes]')) {
      const on = (wrapper.dataset.modes ?? '').split(' ').includes(select.value);
      wrapper.hidden = !on;
      for (const control of wrapper.querySelectorAll<Control>('input, select, textarea'))
        control.disabled = !on;
    }
    const endpoint = endpoints[select.value];
    if (endpoint && form.hasAttribute('action')) form.setAttribute('action', endpoint.path);
  };
  select.addEventListener('change', syncMode);
  syncMode();

  let busy = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const mode = select.value;
    const endpoint = endpoints[mode];
    if (busy || !endpoint) return;
    busy = true;
    output.setAttribute('aria-busy', 'true');
    renderRunning(output);
    const fields = collect(form, endpoint.fixed ? modeName : null);
    try {
      const res = await fetch(`${endpoint.path}?source=web`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(keyInput?.value ? { authorization: `Bearer ${keyInput.value.trim()}` } : {}),
        },
        body: JSON.stringify(fields),
      });
      const answer: Answer = {
        tool,
        mode,
        fields,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: await res.json().catch(() => null),
      };
      renderAnswer(output, answer);
    } catch (err) {
      renderAnswer(output, {
        tool,
        mode,
        fields,
        status: 0,
        retryAfter: null,
        body: null,
        failure: String(err),
      });
    } finally {
      busy = false;
      output.removeAttribute('aria-busy');
    }
  });
}

const KEY_ITEM = 'toolhub.apiKey';

/** The key stays for this tab only (sessionStorage): not sent to any other page, gone when the tab closes. */
function rememberKey(input: HTMLInputElement): void {
  try {
    input.value = sessionStorage.getItem(KEY_ITEM) ?? '';
    input.addEventListener('input', () => sessionStorage.setItem(KEY_ITEM, input.value));
  } catch {
    // storage switched off: the key is typed per page
  }
}

/** The named fields to send: enabled controls, empty optional ones left out (the defaults apply). */
function collect(form: HTMLFormElement, skip: string | null): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const control of form.querySelectorAll<Control>('input[name], select[name], textarea[name]')) {
    if (control.disabled || control.name === 'source' || control.name === skip) continue;
    if (control.value === '' && !control.required) continue;
    fields[control.name] = control.value;
  }
  return fields;
}
