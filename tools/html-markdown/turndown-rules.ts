import type TurndownService from 'turndown';
import { shapeTable } from './table-shape.js';

/** The slice of domino's DOM used here (the project compiles without the DOM lib). */
interface DomElement {
  nodeName: string;
  parentNode: DomElement | null;
  nextSibling: unknown;
  children: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<DomElement>;
}

/** Position of each ordered-list item among its list's element children. */
const itemIndex = new WeakMap<DomElement, number>();

function trimNewlines(text: string): string {
  // A loop, not /\n+$/: that regex backtracks quadratically on long runs of newlines.
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '\n') start++;
  while (end > start && text[end - 1] === '\n') end--;
  return text.slice(start, end);
}

/**
 * Linear-time replacements for two quadratic spots of Turndown + the gfm plugin on long
 * documents: the table rules read `table.rows` in loops (domino rebuilds it on every
 * read), and the list-item rule finds its number with indexOf. Turndown consults rule
 * filters on a node before its children, so a never-matching filter can pin both first.
 */
export function addLinearRules(td: TurndownService): void {
  td.addRule('pinIndexes', {
    filter: (domNode) => {
      const node = domNode as unknown as DomElement;
      if (node.nodeName === 'TABLE' && !Object.hasOwn(node, 'rows')) {
        shapeTable(node as unknown as Parameters<typeof shapeTable>[0]);
        Object.defineProperty(node, 'rows', { value: Array.from(node.getElementsByTagName('tr')) });
      } else if (node.nodeName === 'OL') {
        Array.from(node.children).forEach((child, i) => {
          itemIndex.set(child, i);
        });
      }
      return false;
    },
    replacement: () => '',
  });
  // Turndown's own listItem rule, with the ordered-list index looked up in O(1).
  td.addRule('listItem', {
    filter: 'li',
    replacement: (content, domNode, options) => {
      const node = domNode as unknown as DomElement;
      let prefix = `${options.bulletListMarker}   `;
      const parent = node.parentNode;
      if (parent?.nodeName === 'OL') {
        const start = parent.getAttribute('start');
        const index = itemIndex.get(node) ?? 0;
        prefix = `${start ? Number(start) + index : index + 1}.  `;
      }
      const isParagraph = content.endsWith('\n');
      const body = trimNewlines(content) + (isParagraph ? '\n' : '');
      return (
        prefix + body.replaceAll('\n', `\n${' '.repeat(prefix.length)}`) + (node.nextSibling ? '\n' : '')
      );
    },
  });
}
