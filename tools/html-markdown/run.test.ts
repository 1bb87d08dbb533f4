import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { MAX_DEPTH, MAX_ROW_CELLS } from './sanitize.js';
import { htmlMarkdown, toHtml, toMd } from './test-helpers.js';
import { MAX_INPUT_CHARS } from './tool.js';

describe('html-to-markdown', () => {
  it('converts headings, emphasis, links and images', async () => {
    const html =
      '<h1>Title</h1><h2>Sub</h2><p>Some <strong>bold</strong>, <em>italic</em> and <del>old</del> text with ' +
      '<a href="https://example.com/a" title="T">a link</a> and <img src="/img/cat.png" alt="a cat"></p>';
    expect(await toMd(html)).toBe(
      '# Title\n\n## Sub\n\nSome **bold**, _italic_ and ~~old~~ text with [a link](https://example.com/a "T") and ![a cat](/img/cat.png)',
    );
  });

  it('converts a GFM table with alignment', async () => {
    const html =
      '<table><thead><tr><th>Name</th><th align="right">Qty</th><th style="text-align:center">Note</th></tr></thead>' +
      '<tbody><tr><td>apple</td><td align="right">3</td><td>a|b</td></tr></tbody></table>';
    expect(await toMd(html)).toBe('| Name | Qty | Note |\n| --- | ---: | :---: |\n| apple | 3   | a\\|b |');
  });

  it('writes fenced code blocks with the language of class="language-x"', async () => {
    const html = '<pre><code class="language-ts">const a: number = 1;\nif (a &lt; 2) {}\n</code></pre>';
    expect(await toMd(html)).toBe('```ts\nconst a: number = 1;\nif (a < 2) {}\n```');
    // a fence inside the code gets a longer fence around it
    expect(await toMd('<pre><code>```\nx\n```</code></pre>')).toBe('````\n```\nx\n```\n````');
  });

  it('writes task lists, nested lists and numbered lists', async () => {
    expect(
      await toMd(
        '<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>',
      ),
    ).toBe('-   [x]  done\n-   [ ]  todo');
    expect(await toMd('<ul><li>a<ul><li>b</li></ul></li></ul>')).toBe('-   a\n    -   b');
    expect(await toMd('<ol start="3"><li>c</li><li>d</li></ol>')).toBe('3.  c\n4.  d');
  });

  it('numbers a long ordered list correctly', async () => {
    const md = await toMd(`<ol>${'<li>x</li>'.repeat(1200)}</ol>`);
    const lines = md.split('\n');
    expect(lines).toHaveLength(1200);
    expect(lines[0]).toBe('1.  x');
    expect(lines[1199]).toBe('1200.  x');
  });

  it('converts long tables (many rows) in one piece', async () => {
    const rows = '<tr><td>a</td><td>b</td></tr>'.repeat(3000);
    const md = await toMd(
      `<table><thead><tr><th>x</th><th>y</th></tr></thead><tbody>${rows}</tbody></table>`,
    );
    expect(md.split('\n')).toHaveLength(3002);
  });

  it('drops script and style with their content, and unsafe URLs', async () => {
    const md = await toMd(
      '<p>a<script>alert(1)</script>b<style>p{color:red}</style>c <a href="javascript:alert(1)">click</a></p>',
    );
    expect(md).toBe('abc click');
  });

  it('keeps text that looks like a tag as text', async () => {
    // `&lt;`, not `\\<`: an autolink just before it would swallow the backslash.
    expect(await toMd('<p>&lt;img src=x onerror=alert(1)&gt; and 1 &lt; 2</p>')).toBe(
      '&lt;img src=x onerror=alert(1)> and 1 < 2',
    );
  });

  it('keeps Unicode', async () => {
    expect(await toMd('<p>Grüße 👋 日本語 <b>שלום</b></p>')).toBe('Grüße 👋 日本語 **שלום**');
  });

  it('gives empty output for empty or blank input', async () => {
    expect(await toMd('')).toBe('');
    expect(await toMd('  \n ')).toBe('');
    expect(await toMd('<script>only()</script>')).toBe('');
  });

  it(`refuses nesting deeper than ${MAX_DEPTH} and table rows wider than ${MAX_ROW_CELLS} cells`, async () => {
    expect(await toMd(`${'<div>'.repeat(MAX_DEPTH - 1)}deep`)).toBe('deep');
    await expectToolError(toMd(`${'<div>'.repeat(MAX_DEPTH + 1)}deep`), 'INVALID_INPUT', 'levels deep');
    await expectToolError(toMd(`${'<b>'.repeat(5000)}x`), 'INVALID_INPUT', 'levels deep');
    const row = (n: number) => `<table><tr>${'<td>x</td>'.repeat(n)}</tr></table>`;
    expect((await toMd(row(MAX_ROW_CELLS))).split('|').length).toBeGreaterThan(MAX_ROW_CELLS);
    await expectToolError(toMd(row(MAX_ROW_CELLS + 1)), 'INVALID_INPUT', 'cells');
  });
});

describe('markdown-to-html', () => {
  it('renders a GFM table with alignment', async () => {
    const html = await toHtml('| a | b |\n|:--|--:|\n| 1 | 2 |');
    expect(html).toContain('<th align="left">a</th>');
    expect(html).toContain('<td align="right">2</td>');
    expect(html).toMatch(/^<table>/);
  });

  it('renders fenced code with its language class, escaped', async () => {
    expect(await toHtml('```js\nif (a < b) alert("x");\n```')).toBe(
      '<pre><code class="language-js">if (a &lt; b) alert("x");\n</code></pre>\n',
    );
  });

  it('renders links, images, strikethrough and task lists', async () => {
    const html = await toHtml(
      '[site](https://example.com "T") [rel](../docs/a.md) <mail@example.com> ![pic](https://example.com/p.png) ~~gone~~\n\n- [x] done\n- [ ] todo',
    );
    expect(html).toContain('<a href="https://example.com" title="T">site</a>');
    expect(html).toContain('<a href="../docs/a.md">rel</a>');
    expect(html).toContain('<a href="mailto:mail@example.com">mail@example.com</a>');
    expect(html).toContain('<img src="https://example.com/p.png" alt="pic" />');
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<input type="checkbox" disabled checked /> done');
    expect(html).toContain('<input type="checkbox" disabled /> todo');
  });

  it('sanitizes raw HTML inside Markdown but keeps its safe part', async () => {
    expect(await toHtml('<div style="color:red" onclick="x()" class="c">raw <b>bold</b></div>')).toBe(
      '<div>raw <b>bold</b></div>',
    );
  });

  it('round-trips through Markdown: html → md → html gives the same HTML', async () => {
    const md =
      '# T\n\n| a | b |\n| --- | ---: |\n| 1 | 2 |\n\n```py\nprint(1)\n```\n\n- [x] ok\n\n[l](https://e.com) ~~s~~';
    const html = await toHtml(md);
    expect(await toHtml(await toMd(html))).toBe(html);
  });

  it('refuses Markdown nested too deeply', async () => {
    await expectToolError(toHtml('>'.repeat(MAX_DEPTH + 10)), 'INVALID_INPUT');
  });

  it('gives empty output for empty input', async () => {
    expect(await toHtml('')).toBe('');
  });
});

describe('run', () => {
  it('handles input near the size limit in both directions', async () => {
    const unit = '<p>Hello <b>world</b> &amp; <a href="https://e.com/">more</a></p>\n';
    const html = unit.repeat(Math.floor(MAX_INPUT_CHARS / unit.length));
    const r = await htmlMarkdown({ input: html }, 'html-to-markdown');
    expect(r.stats.inputChars).toBe(html.length);
    expect(r.output.split('\n\n')).toHaveLength(Math.floor(MAX_INPUT_CHARS / unit.length));
    const md = 'Hello **world** & [more](https://e.com/)\n\n'.repeat(12000);
    const back = await htmlMarkdown({ input: md }, 'markdown-to-html');
    expect(back.output.match(/<p>/g)).toHaveLength(12000);
  });

  it('refuses input over the limit, non-strings and unknown modes', async () => {
    await expectToolError(toMd('x'.repeat(MAX_INPUT_CHARS + 1)), 'INVALID_INPUT', String(MAX_INPUT_CHARS));
    // (A number is no wrong type: the schema reads 42 as the text "42".)
    await expectToolError(toMd([42]), 'INVALID_INPUT', 'input must be string');
    await expectToolError(toHtml(undefined), 'INVALID_INPUT', 'input is required');
    await expectToolError(
      htmlMarkdown({ input: 'x' }, 'md-to-pdf'),
      'UNSUPPORTED_OPTION',
      'markdown-to-html',
    );
  });

  it('is deterministic and reports lengths', async () => {
    const a = await htmlMarkdown({ input: '<p>x</p>' }, 'html-to-markdown');
    expect(a).toEqual({ mode: 'html-to-markdown', output: 'x', stats: { inputChars: 8, outputChars: 1 } });
    expect(await htmlMarkdown({ input: '<p>x</p>' }, 'html-to-markdown')).toEqual(a);
  });
});
