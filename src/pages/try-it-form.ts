import type { ToolSpec } from '../shared/tool-def.js';
import type { FormField, TryIt } from './form-model.js';
import { type Html, html } from './html.js';

/**
 * The try-it form: one control per named field of the dedicated endpoint (its `name` is the
 * field's name), a select for the mode, a Run button and the <output> the answer goes in.
 * The script (web/try-it.ts) posts it as JSON with source=web; without the script a GET
 * endpoint still answers the plain form submission.
 */
export function renderTryIt(def: ToolSpec, model: TryIt, callable: boolean, keyRequired: boolean): Html {
  const endpoint = def.endpoints.find((ep) => ep.path === model.endpoints[model.mode]?.path);
  const getAction = endpoint?.methods.includes('GET') ? endpoint.path : null;
  const ids = ['f-mode', ...model.fields.map((f) => `f-${f.name}`)].join(' ');
  return html`<section aria-labelledby="try">
<h2 id="try">Try it</h2>
${callable ? null : html`<p class="notice">This tool is switched off on this hub: a run answers with its error code.</p>`}
<form class="try" data-try-it data-tool="${def.id}" data-endpoints="${JSON.stringify(model.endpoints)}"
 data-mode-name="${model.modeName ?? ''}"${getAction ? html` method="get" action="${getAction}"` : null}>
<input type="hidden" name="source" value="web">
${keyRequired ? keyField() : null}
${modeSelect(def, model)}
${model.fields.map((f) => field(f, model))}
<div class="actions"><button type="submit">Run</button></div>
</form>
<output id="answer" class="answer" for="${ids}" aria-live="polite"><p class="hint">Run the tool to see its answer here.</p></output>
</section>`;
}

/**
 * With API keys on, runs need a key. The field has no name, so it is never sent as a tool
 * field: the script sends it as `Authorization: Bearer` and keeps it in this tab only.
 */
function keyField(): Html {
  return html`<div class="field">
<label for="f-api-key">API key <span class="req">(required)</span></label>
<input type="password" id="f-api-key" data-api-key autocomplete="off" spellcheck="false" required aria-describedby="f-api-key-hint">
<p class="hint" id="f-api-key-hint">This hub runs tools for key holders only. The key stays in this browser tab (sessionStorage) and is sent as <code>Authorization: Bearer</code>.</p>
</div>`;
}

/**
 * A hint that opens with the modes it is for ("Generate only:", "Replace mode only:"): fine
 * in the API reference, where each endpoint has its own fields, but beside the form's mode
 * select it contradicts the other modes, and beside a field the form already hides under
 * the other modes it needs no "(… only)" after it.
 */
const RESTRICTED = /^[^:.]{1,40}\b(only|mode):/i;

function modeSelect(def: ToolSpec, model: TryIt): Html {
  const byPath = new Map<string, string[]>();
  for (const m of model.modes) {
    const path = model.endpoints[m]!.path;
    byPath.set(path, [...(byPath.get(path) ?? []), m]);
  }
  const route =
    byPath.size === 1
      ? [...byPath.keys()][0]!
      : [...byPath]
          .map(([path, modes]) => `${modes.join(', ')} ${modes.length === 1 ? 'runs' : 'run'} ${path}`)
          .join('; ');
  const own = (model.modeName && def.semanticFields[model.modeName]) || def.semanticFields.mode || '';
  const hint = own && !RESTRICTED.test(own) ? own : `Picks the endpoint: ${route}`;
  return html`<div class="field">
<label for="f-mode">${model.modeName ?? 'mode'}</label>
<select id="f-mode"${model.modeName ? html` name="${model.modeName}"` : null} data-mode-select aria-describedby="f-mode-hint">
${model.modes.map((m) => html`<option value="${m}"${m === model.mode ? html` selected` : null}>${m}</option>`)}
</select>
<p class="hint" id="f-mode-hint">${hint}</p>
</div>`;
}

function field(f: FormField, model: TryIt): Html {
  const id = `f-${f.name}`;
  const off = !f.modes.includes(model.mode);
  // A field of one or two modes says so, unless its hint already opens with it (RESTRICTED).
  const only =
    f.modes.length <= 2 && f.modes.length < model.modes.length && !RESTRICTED.test(f.hint)
      ? ` (${f.modes.join(', ')} only)`
      : '';
  const common = html`id="${id}" name="${f.name}" aria-describedby="${id}-hint"${f.required ? html` required` : null}${off ? html` disabled` : null}`;
  return html`<div class="field" data-modes="${f.modes.join(' ')}"${off ? html` hidden` : null}>
<label for="${id}">${f.name}${f.required ? html` <span class="req">(required)</span>` : null}</label>
${control(f, common)}
<p class="hint" id="${id}-hint">${f.hint}${only}</p>
</div>`;
}

function control(f: FormField, common: Html): Html {
  const text = html`autocomplete="off" autocapitalize="off" spellcheck="false"`;
  switch (f.kind) {
    case 'select':
      return html`<select ${common}>
${f.options.map((o) => html`<option value="${o}"${o === f.value ? html` selected` : null}>${o || '(none)'}</option>`)}
</select>`;
    case 'number':
      return html`<input type="number" inputmode="numeric" ${common} value="${f.value}"${f.min === undefined ? null : html` min="${f.min}"`}${f.max === undefined ? null : html` max="${f.max}"`}>`;
    case 'text':
      return html`<input type="text" ${common} ${text} value="${f.value}"${f.maxLength ? html` maxlength="${f.maxLength}"` : null}>`;
    default: {
      const rows = Math.min(12, Math.max(3, f.value.split('\n').length + 1));
      // The parser drops one newline right after <textarea>: a value's own first newline stays.
      return html`<textarea ${common} ${text} rows="${rows}">\n${f.value}</textarea>`;
    }
  }
}
