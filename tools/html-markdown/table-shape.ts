/**
 * Reshapes a table before the gfm plugin writes it, so the result is a valid GFM table.
 * The plugin counts a row's cells as written: a header shorter than the body, or a
 * colspan (which it pads in the header but also in the `---` row, with empty cells),
 * gives a header and delimiter row of different widths, which GFM does not read as a
 * table at all. It also pads colspans without a bound: colspan="30000000" in 90 bytes
 * of HTML made 360 MB of Markdown.
 */

/** The slice of domino's DOM used here (the project compiles without the DOM lib). */
interface DomElement {
  nodeName: string;
  nextSibling: DomElement | null;
  parentNode: DomElement | null;
  children: ArrayLike<DomElement>;
  ownerDocument: { createElement(name: string): DomElement };
  getAttribute(name: string): string | null;
  removeAttribute(name: string): void;
  getElementsByTagName(name: string): ArrayLike<DomElement>;
  appendChild(node: DomElement): DomElement;
  insertBefore(node: DomElement, ref: DomElement | null): DomElement;
}

/** Content that makes the plugin keep the table as HTML or flatten it (left as it is). */
const NOT_MARKDOWN = ['table', 'code', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'blockquote'];

const cellsOf = (row: DomElement) =>
  Array.from(row.children).filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH');

/**
 * Writes each colspan as empty cells after its cell, up to the table's width (its most
 * cells in a row): only empty cells are added, so capping them loses no content, and a
 * `colspan="99"` meant as "the whole row" does not make a 99-column table.
 */
function expandColspans(row: DomElement, width: number): void {
  const cells = cellsOf(row);
  let room = width - cells.length;
  for (const cell of cells) {
    const span = Number.parseInt(cell.getAttribute('colspan') ?? '1', 10);
    cell.removeAttribute('colspan');
    const extra = Number.isFinite(span) ? Math.min(span - 1, room) : 0;
    for (let i = 0; i < extra; i++) {
      row.insertBefore(row.ownerDocument.createElement(cell.nodeName.toLowerCase()), cell.nextSibling);
    }
    room -= Math.max(0, extra);
  }
}

export function shapeTable(table: DomElement): void {
  if (NOT_MARKDOWN.some((tag) => table.getElementsByTagName(tag).length > 0)) return;
  // After the rows: a caption before the first tbody stops the plugin seeing its header row.
  const caption = table.getElementsByTagName('caption')[0];
  if (caption?.parentNode === table) table.appendChild(caption);
  const rows = Array.from(table.getElementsByTagName('tr'));
  // Rows hold at most MAX_ROW_CELLS cells (the sanitizer refuses more), so this is bounded.
  const width = rows.reduce((max, row) => Math.max(max, cellsOf(row).length), 0);
  for (const row of rows) {
    expandColspans(row, width);
    const cells = cellsOf(row);
    const tag = cells[0]?.nodeName === 'TH' ? 'th' : 'td';
    for (let i = cells.length; i < width; i++) row.appendChild(row.ownerDocument.createElement(tag));
  }
}
