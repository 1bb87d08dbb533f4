import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { toMd, unsafeParts } from './test-helpers.js';

/** A plain GFM renderer without any sanitizing, as a careless consumer of the Markdown would use. */
const rawMarked = new Marked({ gfm: true });
const IMG = '&lt;img src=x onerror=alert(1)&gt;';

/** HTML whose Markdown, rendered raw, gave a script link or an event handler before the fix. */
const VECTORS: [string, string][] = [
  [
    'fence inside a highlighted block',
    `<div class="highlight-source-js"><pre>\`\`\`\n${IMG}\n\`\`\`</pre></div>`,
  ],
  ['indented closing fence in code', `<pre><code>x\n   \`\`\`\n${IMG}</code></pre>`],
  ['entity-smuggled scheme in a link', '<a href="javascript&amp;colon;alert(1)">x</a>'],
  ['entity-smuggled scheme in an image', '<img src="javascript&amp;#58;alert(1)" alt="a">'],
  ['autolink before an escaped tag', `www.example.com&gt;${IMG}`],
  ['title ending in a backslash', '<img src="https://ok/a" title="t\\" alt="<img src=x onerror=alert(1)>">'],
  ['URL ending in a backslash', '<img src="https://ok/\\" alt="<img src=x onerror=alert(1)>">'],
  ['URL with a newline', '<img src="https://ok/a\nb" alt="<img src=x onerror=alert(1)>">'],
  [
    'block inside a link, tag in its title',
    '<a href="https://ok/" title="<img src=x onerror=alert(1)>"><p>a</p><p>b</p></a>',
  ],
  [
    'block inside a link, link in its title',
    '<a href="https://ok/" title="[x](javascript:alert(1))"><p>a</p><p>b</p></a>',
  ],
  [
    'blank line in a table kept as HTML',
    '<table><tr><th>a</th></tr><tr><td><pre>x\n\n[x](javascript:alert(1))</pre><ul><li>l</li></ul></td></tr></table>',
  ],
];

describe('html-to-markdown escaping', () => {
  it.each(VECTORS)('renders safely without a sanitizer: %s', async (_label, html) => {
    const md = await toMd(html);
    expect(unsafeParts(rawMarked.parse(md, { async: false }))).toEqual([]);
  });

  it('still writes ordinary links, images, titles and code the usual way', async () => {
    expect(await toMd('<a href="https://ex.com/a_(b)?q=1&amp;r=2" title="A &quot;T&quot;">x</a>')).toBe(
      '[x](https://ex.com/a_\\(b\\)?q=1&r=2 "A &#34;T&#34;")',
    );
    expect(await toMd('<img src="/a b.png" alt="a [b]">')).toBe('![a \\[b\\]](/a%20b.png)');
    expect(await toMd('<pre><code class="language-ts">a\n```\nb</code></pre>')).toBe(
      '````ts\na\n```\nb\n````',
    );
    expect(await toMd('<div class="highlight-text-html-basic"><pre>&lt;p&gt;</pre></div>')).toBe(
      '```html\n<p>\n```',
    );
    // A backtick in the language would make the opening fence longer than the closing one.
    expect(await toMd('<pre><code class="language-```js">x</code></pre><p>after</p>')).toBe(
      '```\nx\n```\n\nafter',
    );
    // Text that spells an entity keeps spelling it.
    expect(await toMd('<p>&amp;lt;b&amp;gt; &amp; more</p>')).toBe('&amp;lt;b&amp;gt; & more');
  });

  it('keeps a table that stays HTML on one line, newlines as &#10;', async () => {
    const md = await toMd(
      '<table><tr><th>a</th></tr><tr><td><pre>1\n\n2</pre><ul><li>l</li></ul></td></tr></table>',
    );
    expect(md).not.toContain('\n');
    expect(rawMarked.parse(md, { async: false })).toContain('<pre>1&#10;&#10;2</pre>');
  });
});
