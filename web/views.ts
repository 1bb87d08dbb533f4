import { codeBlock, el, member, text } from './dom.js';
import { schemaView, tokenView, validatorView } from './views-data.js';
import { cronView, diffView, regexView } from './views-text.js';

/** A view of a tool's result; null when the result has nothing it can show. */
export type View = (result: unknown, mode: string, fields: Record<string, string>) => HTMLElement | null;

/** The QR code as an image: PNG and SVG both as data: URLs, so no SVG markup enters the page. */
const qrView: View = (result, _mode, fields) => {
  const data = text(member(result, 'data'));
  const format = member(result, 'format');
  if (format === 'utf8') return el('pre', { class: 'qr-text', 'aria-label': 'QR code as text' }, data);
  const src =
    format === 'png' && data.startsWith('data:image/png;base64,')
      ? data
      : format === 'svg'
        ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data)}`
        : null;
  return src
    ? el(
        'figure',
        { class: 'qr' },
        el('img', { src, alt: `QR code of “${(fields.data ?? '').slice(0, 100)}”` }),
      )
    : null;
};

/** One swatch: a box whose background is the colour (set through CSSOM: the CSP allows it), and its codes. */
function swatch(color: unknown): HTMLElement | null {
  const hex = text(member(color, 'hex'));
  if (!/^#[0-9a-f]{6}([0-9a-f]{2})?$/i.test(hex)) return null;
  const chip = el('span', { class: 'chip', 'aria-hidden': 'true' });
  chip.style.backgroundColor = hex;
  const other = text(member(color, 'oklch')) || text(member(color, 'output'));
  return el(
    'li',
    { class: 'swatch' },
    chip,
    el('code', {}, hex),
    other ? el('span', { class: 'hint' }, other) : null,
  );
}

const paletteView: View = (result) => {
  const colors = member(result, 'colors');
  const list = Array.isArray(colors) ? colors : [result];
  const items = list.map(swatch).filter((s): s is HTMLElement => s !== null);
  return items.length ? el('ul', { class: 'swatches', 'aria-label': 'Colours' }, ...items) : null;
};

/**
 * Markdown → HTML is previewed in a frame with `sandbox=""`: no script, no form, no
 * navigation of the page, whatever the HTML holds. HTML → Markdown is shown as text.
 */
const markdownView: View = (result, mode) => {
  const output = text(member(result, 'output'));
  if (mode !== 'markdown-to-html') return codeBlock(output, 'Markdown');
  const frame = el('iframe', { sandbox: '', class: 'preview', title: 'Preview of the HTML' });
  frame.srcdoc = output;
  return el('div', { class: 'preview-box' }, el('p', { class: 'hint' }, 'Preview (sandboxed):'), frame);
};

/** Generated code, one block per client or target, each with its copy button. */
const snippetsView: View = (result) => {
  const snippets = member(result, 'snippets');
  if (typeof snippets !== 'object' || snippets === null) return null;
  return el(
    'div',
    { class: 'snippets' },
    ...Object.entries(snippets as Record<string, unknown>).map(([name, code]) =>
      el('section', { class: 'snippet' }, el('h3', {}, name), codeBlock(text(code), `${name} code`)),
    ),
  );
};

const outputView: View = (result) => {
  const output = member(result, 'output');
  return typeof output === 'string' ? codeBlock(output, 'output') : null;
};

const VIEWS: Record<string, View> = {
  'qr-code': qrView,
  'color-palette': paletteView,
  'html-markdown': markdownView,
  'regex-tester': regexView,
  'structured-diff': diffView,
  'api-header-builder': snippetsView,
  'api-response-mocker': snippetsView,
  'cron-expression': cronView,
  'format-detective': outputView,
  'token-counter': tokenView,
  'schema-generator': schemaView,
  'structured-output-validator': validatorView,
};

export function viewFor(
  tool: string,
  mode: string,
  result: unknown,
  fields: Record<string, string>,
): HTMLElement | null {
  const view = VIEWS[tool]?.(result, mode, fields);
  return view ? el('div', { class: 'view' }, view) : null;
}
