import sanitizeHtml, { type IOptions } from 'sanitize-html';
import { ToolInputError } from '#tool-kit';

/** Deepest element nesting accepted. htmlparser2's open-element stack is quadratic in depth. */
export const MAX_DEPTH = 256;
/** Link and image schemes kept; relative and protocol-relative URLs are kept too. */
const SCHEMES = ['http', 'https', 'mailto'];
/** Elements whose content is dropped with them (not kept as text). */
const DROP_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'iframe',
  'noembed',
  'noframes',
  'template',
  'title',
  'xmp',
];
const TEXT_TAGS = [
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'blockquote',
  'pre',
  'code',
  'div',
  'span',
];
const INLINE_TAGS = [
  'em',
  'strong',
  'b',
  'i',
  'u',
  's',
  'del',
  'strike',
  'ins',
  'mark',
  'sub',
  'sup',
  'small',
];
const MORE_TAGS = ['kbd', 'samp', 'var', 'abbr', 'q', 'cite', 'dfn', 'a', 'img', 'input'];
const LIST_TAGS = ['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'details', 'summary', 'figure', 'figcaption'];
const TABLE_TAGS = ['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col'];
const CELL_ATTRIBUTES = ['align', 'colspan', 'rowspan'];

/** Task-list checkboxes only: whatever the input said, an input becomes a disabled checkbox. */
function checkbox(_tag: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const out: sanitizeHtml.Attributes = { type: 'checkbox', disabled: '' };
  if (attribs.checked !== undefined) out.checked = '';
  return { tagName: 'input', attribs: out };
}

/** The allow-list of HTML produced for embedding: no style, no event handlers, no active content. */
export const SAFE_HTML: IOptions = {
  allowedTags: [...TEXT_TAGS, ...INLINE_TAGS, ...MORE_TAGS, ...LIST_TAGS, ...TABLE_TAGS],
  allowedSchemes: SCHEMES,
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  nonTextTags: DROP_WITH_CONTENT,
  transformTags: { input: checkbox },
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    code: ['class'],
    th: [...CELL_ATTRIBUTES, 'scope'],
    td: CELL_ATTRIBUTES,
    ol: ['start'],
    input: ['type', 'checked', 'disabled'],
    abbr: ['title'],
    details: ['open'],
  },
  allowedClasses: { code: ['language-*'] },
};

/**
 * The allow-list HTML is reduced to before Turndown: the same safety, plus what Turndown
 * reads (code-block language classes, table cell alignment).
 */
export const TURNDOWN_INPUT: IOptions = {
  ...SAFE_HTML,
  allowedAttributes: {
    ...(SAFE_HTML.allowedAttributes as Record<string, string[]>),
    th: [...CELL_ATTRIBUTES, 'style'],
    td: [...CELL_ATTRIBUTES, 'style'],
    pre: ['class'],
    div: ['class'],
  },
  allowedClasses: { code: ['language-*', 'lang-*'], pre: ['language-*', 'lang-*'], div: ['highlight-*'] },
  allowedStyles: { '*': { 'text-align': [/^(?:left|right|center)$/] } },
};

/** Most cells in one table row before Turndown (the gfm cell rule is quadratic in row width). */
export const MAX_ROW_CELLS = 256;

/**
 * sanitize-html with bounds checked while parsing: element nesting (so a deeply nested
 * input cannot run for seconds) and, when given, cells per table row.
 */
export function sanitize(html: string, options: IOptions, maxRowCells = Number.POSITIVE_INFINITY): string {
  let depth = 0;
  const rows: number[] = [];
  // ToolInputError thrown in a hook propagates out of sanitizeHtml (parsing is synchronous).
  return sanitizeHtml(html, {
    ...options,
    onOpenTag: (name, attribs) => {
      depth++;
      if (depth > MAX_DEPTH)
        throw new ToolInputError(`the document nests elements more than ${MAX_DEPTH} levels deep`);
      if (name === 'tr') rows.push(0);
      else if ((name === 'td' || name === 'th') && rows.length > 0) {
        // A colspan counts as the cells it spans: the gfm plugin writes one per spanned column.
        const span = Math.max(1, Number.parseInt(attribs.colspan ?? '1', 10) || 1);
        const cells = rows[rows.length - 1]! + span;
        rows[rows.length - 1] = cells;
        if (cells > maxRowCells) {
          throw new ToolInputError(`a table row has more than ${maxRowCells} cells (colspan counted)`);
        }
      }
    },
    onCloseTag: (name) => {
      depth--;
      if (name === 'tr') rows.pop();
    },
  });
}
