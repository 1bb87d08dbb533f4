import type TurndownService from 'turndown';

/** The slice of domino's DOM used here (the project compiles without the DOM lib). */
interface DomNode {
  nodeName: string;
  firstChild: DomNode | null;
  textContent: string | null;
  getAttribute?(name: string): string | null;
}

/** A language name safe in a fence's info string (a backtick there would break the fence). */
const LANGUAGE = /^(?:language|lang)-([\w#+.-]{1,40})$/;
/** GitHub's highlighted blocks: `highlight-source-js`, `highlight-text-html-basic` → js, html. */
const HIGHLIGHT = /^highlight-(?:text|source)-([a-z0-9]+)/;

function languageOf(pattern: RegExp, ...nodes: (DomNode | null)[]): string {
  for (const node of nodes) {
    for (const name of (node?.getAttribute?.('class') ?? '').split(/\s+/)) {
      const m = pattern.exec(name);
      if (m) return m[1] as string;
    }
  }
  return '';
}

/**
 * A backtick fence longer than any backtick run that could close it inside the code.
 * CommonMark closes a fence on a line of at least as many backticks indented up to
 * 3 spaces; Turndown counted only unindented runs, and the gfm plugin's highlighted
 * blocks (`div.highlight-source-js > pre`) did not count at all, so code holding
 * "```" ended the block early and the rest of it was read as Markdown and raw HTML.
 */
function fenceFor(code: string): string {
  let longest = 0;
  for (const m of code.matchAll(/^ {0,3}(`{3,})/gm)) longest = Math.max(longest, (m[1] as string).length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function fenced(code: string, language: string): string {
  const fence = fenceFor(code);
  return `\n\n${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}\n\n`;
}

/** Fenced code blocks (`pre > code` and GitHub's `div.highlight-* > pre`) with a safe fence. */
export function addCodeBlockRules(td: TurndownService): void {
  td.addRule('fencedCodeBlock', {
    filter: (domNode) => {
      const node = domNode as unknown as DomNode;
      return node.nodeName === 'PRE' && node.firstChild?.nodeName === 'CODE';
    },
    replacement: (_content, domNode) => {
      const pre = domNode as unknown as DomNode;
      return fenced(pre.firstChild?.textContent ?? '', languageOf(LANGUAGE, pre.firstChild, pre));
    },
  });
  td.addRule('highlightedCodeBlock', {
    filter: (domNode) => {
      const node = domNode as unknown as DomNode;
      return (
        node.nodeName === 'DIV' && node.firstChild?.nodeName === 'PRE' && languageOf(HIGHLIGHT, node) !== ''
      );
    },
    replacement: (_content, domNode) => {
      const div = domNode as unknown as DomNode;
      return fenced(div.firstChild?.textContent ?? '', languageOf(HIGHLIGHT, div));
    },
  });
}
