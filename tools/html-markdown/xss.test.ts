import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { htmlMarkdown, unsafeParts } from './test-helpers.js';

/** OWASP-style vectors (XSS filter evasion cheat sheet, DOMPurify mXSS cases, Markdown link forms). */
const VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<<script>alert(1);//<</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  '<img src="javascript:alert(1)">',
  '<img srcset="javascript:alert(1) 1x" src="https://ok.example/a.png">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="  JaVaScRiPt:alert(1)">x</a>',
  '<a href="jav&#x61;script:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="java\u0000script:alert(1)">x</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
  '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="https://ok.example" onmouseover="alert(1)">ok</a>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1) "t")',
  '[x](&#106;avascript:alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x](data:text/html,<script>alert(1)</script>)',
  '![x](javascript:alert(1))',
  '<javascript:alert(1)>',
  '[x][r]\n\n[r]: javascript:alert(1)',
  '<svg onload=alert(1)>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<svg><style><img src=x onerror=alert(1)></style></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<iframe src="https://evil.example/"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<style>body{background:url(javascript:alert(1))}</style>',
  '<div style="background:url(javascript:alert(1))" onclick="alert(1)">x</div>',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(2)">go</button></form>',
  '<input type="text" onfocus=alert(1) autofocus>',
  '<body onload=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<video poster=javascript:alert(1)></video>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<textarea><script>alert(1)</script></textarea>',
  '<a href="https://ok.example/)[y](javascript:alert(1)">t</a>',
  '<img src="https://ok.example/a.png" alt="](javascript:alert(1))">',
  '`<script>` and <code>&lt;img src=x onerror=alert(1)&gt;</code>',
];

/** A plain GFM renderer without any sanitizing, as a careless consumer of the Markdown would use. */
const rawMarked = new Marked({ gfm: true });

describe('XSS corpus', () => {
  it('has an oracle that catches unsafe HTML (so the checks below can fail)', () => {
    expect(unsafeParts('<a href=" jav&#x09;ascript:x">a</a>')).not.toEqual([]);
    expect(unsafeParts('<img src=x onerror=y>')).not.toEqual([]);
    expect(unsafeParts('<svg><script>x</script></svg>')).not.toEqual([]);
    expect(unsafeParts('<a href="DATA:text/html,x">a</a>')).not.toEqual([]);
    expect(unsafeParts('<p style="x">a</p>')).not.toEqual([]);
    expect(unsafeParts('<a href="https://ok.example/">ok</a><img src="/a.png" alt="">')).toEqual([]);
  });

  it(`holds ${VECTORS.length} vectors`, () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(20);
    // unsanitized rendering of the corpus is unsafe: the corpus really attacks
    const unsafe = VECTORS.filter((v) => unsafeParts(rawMarked.parse(v, { async: false })).length > 0);
    expect(unsafe.length).toBeGreaterThanOrEqual(30);
  });

  it.each(VECTORS)('markdown-to-html output is safe: %s', async (vector) => {
    const { output } = await htmlMarkdown({ input: vector }, 'markdown-to-html');
    expect(unsafeParts(output)).toEqual([]);
    // and stays safe when sanitized output is fed back in (no mutation on a second pass)
    const again = await htmlMarkdown({ input: output }, 'markdown-to-html');
    expect(unsafeParts(again.output)).toEqual([]);
  });

  it.each(VECTORS)('html-to-markdown output renders safely even without a sanitizer: %s', async (vector) => {
    const { output } = await htmlMarkdown({ input: vector }, 'html-to-markdown');
    expect(unsafeParts(rawMarked.parse(output, { async: false }))).toEqual([]);
  });

  it('keeps the safe parts of a vector', async () => {
    const { output } = await htmlMarkdown({ input: VECTORS[17]! }, 'markdown-to-html');
    expect(output).toBe('<p><a href="https://ok.example">ok</a></p>\n');
  });
});
