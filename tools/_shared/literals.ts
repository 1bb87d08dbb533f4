/**
 * Source-code literals for generated snippets (api-header-builder, api-response-mocker).
 * Every value from the input reaches a snippet through one of these functions, never by
 * plain concatenation: httpsnippet 3 escapes no backslashes in JavaScript and Python
 * literals and leaves raw newlines in Python strings, so values are written here.
 */

/** JSON texts longer than this are embedded on one line, to keep the result compact. */
const PRETTY_LIMIT = 20000;

const JS_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

const hex4 = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;
const isSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdfff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** A single-quoted JavaScript string literal; `</` becomes `<\/` so it can sit in a <script>. */
export function jsString(value: string): string {
  let out = "'";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    const code = value.charCodeAt(i);
    if (JS_ESCAPES[ch] !== undefined) out += JS_ESCAPES[ch];
    else if (
      code >= 0xd800 &&
      code <= 0xdbff &&
      i + 1 < value.length &&
      isLowSurrogate(value.charCodeAt(i + 1))
    ) {
      out += ch + value[i + 1];
      i++;
    } else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029 || isSurrogate(code)) {
      out += hex4(code);
    } else if (ch === '/' && value[i - 1] === '<') out += '\\/';
    else out += ch;
  }
  return `${out}'`;
}

/** JSON text, pretty unless long. */
export function jsonText(value: unknown): string {
  const compact = JSON.stringify(value);
  return compact.length > PRETTY_LIMIT ? compact : JSON.stringify(value, null, 2);
}

/**
 * JSON text is a JavaScript expression (ES2019); make it script-safe and indent it.
 * In an object literal `"__proto__": v` sets the prototype instead of a key, so that key
 * is written computed (`["__proto__"]: v`). In JSON text a bare `"` followed by `:` right
 * after `{` or `,` can only open a key (quotes inside strings are escaped).
 */
export function jsJson(value: unknown, indent = ''): string {
  const text = jsonText(value)
    .replace(/([{,]\s*)"__proto__":/g, '$1["__proto__"]:')
    .replace(/<\//g, '<\\/')
    .replace(/<!--/g, '\\u003c!--')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return text.replace(/\n/g, `\n${indent}`);
}

/** A double-quoted Python string literal: JSON's escapes are all valid Python escapes. */
export function pyString(value: string): string {
  return JSON.stringify(value);
}

/** A Python literal (dict/list/str/int/float/bool/None) of a JSON value. */
export function pyLiteral(value: unknown): string {
  return pyValue(value, 0, JSON.stringify(value).length <= PRETTY_LIMIT);
}

function pyValue(value: unknown, level: number, pretty: boolean): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'None';
  if (typeof value === 'string') return pyString(value);
  const pad = pretty ? `\n${'    '.repeat(level + 1)}` : '';
  const close = pretty ? `\n${'    '.repeat(level)}` : '';
  const join = pretty ? ',' : ', ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${value.map((v) => pad + pyValue(v, level + 1, pretty)).join(join)}${close}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const items = entries.map(([k, v]) => `${pad}${pyString(k)}: ${pyValue(v, level + 1, pretty)}`);
  return `{${items.join(join)}${close}}`;
}

/** POSIX shell single quoting. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}
