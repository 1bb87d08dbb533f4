/**
 * Escaping of what Turndown writes, so the Markdown renders safely even in a renderer
 * that passes raw HTML through (the Markdown holds no tag, no unsafe link, whatever the
 * HTML was). Turndown's own escaping left four ways to raw HTML or a script link:
 * - `\<` before a tag: an autolink (`www.x.y>\<img ...>`) swallows the backslash;
 * - link and image attributes: a title or URL ending in `\`, a URL with a newline, or a
 *   block in the link text broke the `[..](..)` syntax, and the unescaped alt text or
 *   title (`<img onerror>`) became HTML;
 * - entities in a URL (`javascript&colon;alert(1)`, harmless in HTML, where the
 *   sanitizer saw it) are decoded by Markdown into `javascript:`;
 * - tables kept as HTML end their HTML block at a blank line inside them, and the rest
 *   (`[x](javascript:...)` in a <pre>) is read as Markdown.
 */
import type TurndownService from 'turndown';

interface DomElement {
  nodeName: string;
  getAttribute(name: string): string | null;
}

/** `&` that Markdown would read as the start of an entity reference. */
const ENTITY_START = /&(?=#?[A-Za-z0-9]+;)/g;
/** `<` that could start a tag, a comment or an autolink. */
const TAG_START = /<(?=[A-Za-z/!?])/g;

/** Text escaping on top of Turndown's: entities instead of backslashes, which autolinks eat. */
export function escapeHtmlStarts(markdown: string): string {
  return markdown.replace(ENTITY_START, '&amp;').replace(TAG_START, '&lt;');
}

/**
 * A link destination without spaces, controls or unbalanced syntax: `\ ( )` are
 * backslash-escaped; `< >`, whitespace, controls and an entity-like `&` are %-encoded
 * (a `\&` is not enough: marked writes `&colon;` back into the href unescaped).
 */
export function escapeDestination(url: string): string {
  return url
    .replace(/[\\()]/g, '\\$&')
    .replace(ENTITY_START, '%26')
    .replace(
      /[\u0000-\u0020\u007f<>]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
    );
}

/**
 * A link title in double quotes, on one line, its Markdown-significant characters as
 * numeric references: a renderer decodes them into the title attribute, and should the
 * link not parse (a block inside it), the title is inert text, not `<img>` or `[x](...)`.
 */
function escapeTitle(title: string): string {
  return title
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[&<>"\\[\]`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function titlePart(node: DomElement): string {
  const title = escapeTitle(node.getAttribute('title') ?? '');
  return title ? ` "${title}"` : '';
}

/** Kept HTML on one line: no blank line ends its HTML block; `&#10;` is a newline in HTML. */
function oneLine(html: string): string {
  return html.replace(/\r\n?|\n/g, '&#10;');
}

type Rule = TurndownService.Rule;

/** Replaces Turndown's link, image and (gfm) table rules; call after `td.use(gfm)`. */
export function addEscapingRules(td: TurndownService): void {
  const rules = (td as unknown as { rules: { array: Rule[] } }).rules.array;
  // The gfm table rule is the one whose filter takes a bare TABLE (others read more, and throw).
  const probe = { nodeName: 'TABLE' } as never;
  const gfmTable = rules.find((r) => {
    try {
      return typeof r.filter === 'function' && r.filter(probe, td.options);
    } catch {
      return false;
    }
  });
  if (gfmTable) {
    td.addRule('table', {
      filter: 'table',
      replacement: (content, node, options) => {
        const out = String(gfmTable.replacement?.(content, node, options) ?? content);
        return out.includes('<table') ? `\n\n${oneLine(out.trim())}\n\n` : out;
      },
    });
  }
  td.addRule('inlineLink', {
    filter: (domNode) => domNode.nodeName === 'A' && Boolean((domNode as DomElement).getAttribute('href')),
    replacement: (content, domNode) => {
      const node = domNode as unknown as DomElement;
      return `[${content}](${escapeDestination(node.getAttribute('href') ?? '')}${titlePart(node)})`;
    },
  });
  td.addRule('image', {
    filter: 'img',
    replacement: (_content, domNode) => {
      const node = domNode as unknown as DomElement;
      const src = node.getAttribute('src') ?? '';
      if (!src) return '';
      const alt = td.escape((node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim());
      return `![${alt}](${escapeDestination(src)}${titlePart(node)})`;
    },
  });
}
