import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { toMd } from './test-helpers.js';

const gfm = new Marked({ gfm: true });
/** Header cells and body rows as a GFM renderer reads the Markdown (null: not a table). */
function readTable(md: string): { head: number; rows: number[] } | null {
  const html = gfm.parse(md, { async: false });
  if (!html.includes('<table>')) return null;
  const head = (html.split('</thead>')[0]?.match(/<th[ >]/g) ?? []).length;
  const body = html.split('<tbody>')[1] ?? '';
  const rows = body
    .split('</tr>')
    .slice(0, -1)
    .map((r) => (r.match(/<td[ >]/g) ?? []).length);
  return { head, rows };
}

describe('html-to-markdown table shape', () => {
  it.each([
    ['a header shorter than the body', '<table><tr><th>A</th></tr><tr><td>1</td><td>2</td></tr></table>', 2],
    [
      'a colspan in the header',
      '<table><tr><th colspan="2">A</th></tr><tr><td>1</td><td>2</td></tr></table>',
      2,
    ],
    [
      'a colspan wider than the table',
      '<table><tr><th colspan="99">A</th></tr><tr><td>1</td><td>2</td></tr></table>',
      2,
    ],
    [
      'a caption before the rows',
      '<table><caption>C</caption><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>',
      2,
    ],
  ])('writes a valid GFM table for %s', async (_label, html, columns) => {
    const table = readTable(await toMd(html));
    expect(table).toEqual({ head: columns, rows: [columns] });
  });

  it('keeps the caption above the table', async () => {
    const md = await toMd('<table><caption>Cap</caption><tr><th>A</th></tr><tr><td>1</td></tr></table>');
    expect(md).toBe('Cap\n\n| A   |\n| --- |\n| 1   |');
  });

  it('counts colspan in the row width limit: a tiny input cannot spell a huge table', async () => {
    // colspan="30000000" once made 360 MB of Markdown from 90 bytes.
    for (const body of ['<td>1</td>', '<td><ul><li>kept as HTML</li></ul></td>']) {
      const html = `<table><tr><th colspan="30000000">x</th></tr><tr>${body}</tr></table>`;
      await expectToolError(toMd(html), 'INVALID_INPUT', 'a table row has more than 256 cells');
    }
  });
});
