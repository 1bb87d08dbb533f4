import { describe, expect, it } from 'vitest';
import { esc, html, prose, raw } from './html.js';

describe('html templates', () => {
  it('escapes every interpolated value for text and attributes', () => {
    const evil = `<script>alert("x")</script>' onmouseover='1`;
    const out = html`<p title="${evil}">${evil}</p>`.value;
    expect(out).not.toContain('<script>');
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;1">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;1</p>',
    );
  });

  it('joins arrays, drops null and false, keeps Html as it is', () => {
    expect(html`<ul>${['<a>', raw('<li>b</li>'), null, false]}</ul>`.value).toBe(
      '<ul>&lt;a&gt;<li>b</li></ul>',
    );
    expect(esc('a&b')).toBe('a&amp;b');
  });

  it('turns backticks into <code> and escapes the rest, an unpaired backtick staying text', () => {
    expect(prose('Pass `a<b>` as <i>').value).toBe('Pass <code>a&lt;b&gt;</code> as &lt;i&gt;');
    expect(prose('one ` only').value).toBe('one ` only');
    expect(prose('`x` and ` y').value).toBe('<code>x</code> and ` y');
  });
});
