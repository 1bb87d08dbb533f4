import { DomUtils, parseDocument } from 'htmlparser2';

/** Parsed pages for the rendering tests: find elements by tag and attributes. */
export type Doc = ReturnType<typeof parseDocument>;
export type El = ReturnType<typeof DomUtils.findAll>[number];

export const parse = (markup: string): Doc => parseDocument(markup);

export function find(root: Doc | El, tag: string, attrs: Record<string, string> = {}): El[] {
  return DomUtils.findAll(
    (e) => e.name === tag && Object.entries(attrs).every(([k, v]) => e.attribs[k] === v),
    root.children,
  );
}

export function one(root: Doc | El, tag: string, attrs: Record<string, string> = {}): El {
  const [found] = find(root, tag, attrs);
  if (!found) throw new Error(`no <${tag}> with ${JSON.stringify(attrs)}`);
  return found;
}

export const textOf = (e: El | Doc): string => DomUtils.textContent(e).replace(/\s+/g, ' ').trim();
