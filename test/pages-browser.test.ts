import jsQRModule from 'jsqr';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  axeViolations,
  css,
  run,
  Session,
  shot,
  startHubAndBrowser,
  stopHubAndBrowser,
} from './browser/harness.js';
import { apiKeysFile, policyFile } from './helpers.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ??
  jsQRModule) as typeof jsQRModule.default;

/** The built server, one headless chromium and one page for the whole file (docs/api.md, "Tool pages"). */
let hub: Instance;
let browser: Browser;
let s: Session;
beforeAll(async () => {
  ({ hub, browser } = await startHubAndBrowser({
    JUNK_LIMIT: '0',
    // One run a minute: the second shows how a 429 reads.
    POLICY_FILE: await policyFile({ tools: { 'token-counter': { limit: 1, burst: 0 } } }),
  }));
  s = await Session.start(browser, hub.base);
});
afterAll(async () => {
  await stopHubAndBrowser(hub, browser);
});

const label = (text: string | RegExp) => s.page.getByLabel(text);

describe('tool pages in a browser', () => {
  it('loads the index and every tool page with no console error and no request leaving the hub', async () => {
    const page = await s.goto('/');
    expect(page.url()).toBe(`${hub.base}/tools/`);
    expect(await page.locator('#filter').isVisible()).toBe(true); // the script ran under the CSP
    await shot(page, 'index');
    await shot(page, 'readme-index', false);
    const hrefs = (await page.evaluate(
      `[...document.querySelectorAll('li.card h3 a')].map((a) => a.getAttribute('href'))`,
    )) as string[];
    expect(hrefs.length).toBeGreaterThanOrEqual(12);
    for (const href of hrefs) {
      await page.goto(`${hub.base}${href}`);
      expect(await page.locator('h1').textContent()).toBeTruthy();
      await shot(page, href.split('/')[2]!, false);
    }
    expect(s.errors).toEqual([]);
    expect(s.foreign).toEqual([]);
  }, 60_000);

  it('/docs: Swagger UI renders the operations under its CSP, with no console error', async () => {
    const page = await s.goto('/docs');
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThanOrEqual(12);
    expect(await page.locator('.topbar img').count()).toBe(1); // the initializer script ran
    await shot(page, 'docs', false);
    expect(s.errors).toEqual([]); // a CSP violation is a console error
    expect(s.foreign).toEqual([]);
  });

  it('narrows the list as you type in the filter box', async () => {
    const page = await s.goto('/tools/');
    await label('Filter tools').fill('regex');
    expect(await page.locator('li.card:visible').count()).toBe(1);
    await label('Filter tools').fill('zzz-nothing');
    expect(await page.locator('#filter-count').textContent()).toContain('No tool matches');
  });

  it('QR code: the PNG decodes back to its data, the SVG shows as an image', async () => {
    const page = await s.goto('/tools/qr-code/');
    await run(page);
    expect(await page.locator('output img').getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    await label('format').selectOption('png');
    await label(/^data/).fill('tool-hub e2e ✓');
    await label('size').fill('256');
    await run(page);
    const src = (await page.locator('output img').getAttribute('src')) ?? '';
    const png = PNG.sync.read(Buffer.from(src.replace(/^data:image\/png;base64,/, ''), 'base64'));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe('tool-hub e2e ✓');
  });

  it('colour palette: swatches show their colour and hex code; convert picks its endpoint', async () => {
    const page = await s.goto('/tools/color-palette/');
    await label('scheme').selectOption('tetradic');
    await label(/^color/).fill('#ff0000');
    await label('count').fill('4');
    await run(page);
    expect(await page.locator('.swatch').count()).toBe(4);
    const hex = (await page.locator('.swatch code').first().textContent()) ?? '';
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    expect(await css(page, '.swatch .chip', 'background-color')).toBe(`rgb(${r}, ${g}, ${b})`);
    await label('scheme').selectOption('convert');
    await label('format').selectOption('hsl');
    await run(page);
    expect(await page.locator('output').textContent()).toContain('"mode": "convert"');
    expect(await page.locator('.swatch').count()).toBe(1);
  });

  it('regex: matches are highlighted in the text; an invalid pattern shows its errorCode', async () => {
    const page = await s.goto('/tools/regex-tester/');
    await label(/^pattern/).fill('\\d+');
    await label('text').fill('a1 b22 c333');
    await label('flags').fill('g');
    await run(page);
    expect(await page.locator('output mark').allTextContents()).toEqual(['1', '22', '333']);
    expect(await page.locator('output details.json').getAttribute('open')).toBeNull(); // folded
    await page
      .locator('section[aria-labelledby="try"]')
      .screenshot({ path: `${ARTIFACTS}/readme-regex.png` });
    await label(/^pattern/).fill('a(');
    await run(page);
    expect(await page.locator('output .error-code').textContent()).toBe('INVALID_INPUT');
    expect(await page.locator('output .error-message').textContent()).toContain('Invalid regular expression');
  });

  it('Markdown: the preview is sandboxed, so no injected handler runs', async () => {
    const page = await s.goto('/tools/html-markdown/');
    await label('mode').selectOption('markdown-to-html');
    const inject = `<img src=x onerror="parent.document.body.dataset.pwned='img'">`;
    await label(/^input/).fill(
      `# Title\n\n${inject}\n\n<script>parent.document.body.dataset.pwned='s'</script>`,
    );
    await run(page);
    const frame = page.locator('iframe.preview');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await page.frameLocator('iframe.preview').locator('h1').textContent()).toBe('Title');
    // Even unsanitised HTML put straight into the frame runs no handler.
    await page.evaluate(`document.querySelector('iframe.preview').srcdoc = ${JSON.stringify(inject)}`);
    await page.waitForTimeout(300);
    expect(await page.evaluate('document.body.dataset.pwned ?? null')).toBeNull();
  });

  it('diff: changes are listed and coloured by operation; snippets have copy buttons', async () => {
    const page = await s.goto('/tools/structured-diff/');
    await run(page);
    for (const op of ['add', 'remove', 'replace'])
      expect(await page.locator(`.diff .op-${op}`).count()).toBeGreaterThan(0);
    const added = await css(page, '.op-add', 'background-color');
    expect(added).not.toBe(await css(page, '.op-remove', 'background-color'));
    await s.goto('/tools/api-header-builder/');
    await run(page);
    expect(await page.locator('.snippet h3').allTextContents()).toEqual(['curl', 'fetch', 'axios', 'python']);
    await page.getByRole('button', { name: 'Copy curl code' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toMatch(/^curl --request POST/);
  });

  it('a 429 says when to retry', async () => {
    const page = await s.goto('/tools/token-counter/');
    await run(page);
    await run(page);
    expect(await page.locator('output .error-code').textContent()).toBe('RATE_LIMITED');
    expect(await page.locator('output .retry').textContent()).toMatch(/^Retry after \d+ s/);
  });

  it('works from the keyboard: Tab reaches the fields and Run, Enter and Space run it', async () => {
    const page = await s.goto('/tools/regex-tester/');
    const focused = () => page.evaluate('document.activeElement.id || document.activeElement.textContent');
    for (let i = 0; i < 20 && (await focused()) !== 'f-pattern'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('f-pattern');
    expect(await css(page, '#f-pattern', 'outline-style')).toBe('solid'); // focus is visible
    await page.keyboard.press('Control+A');
    await page.keyboard.type('[a-z]+');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('f-text');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('ab cd');
    await page.keyboard.press('Tab');
    await page.keyboard.type('g');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Run');
    await page.keyboard.press('Enter');
    await page.locator('output .status').waitFor();
    expect(await page.locator('output mark').allTextContents()).toEqual(['ab', 'cd']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('End');
    await page.keyboard.type('i');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.locator('output .status').waitFor();
    expect(await page.locator('output').textContent()).toContain('"flags": "gi"');
  });

  it('fits a 360 px wide screen, in the dark scheme too', async () => {
    for (const [path, name] of [
      ['/tools/', 'index'],
      ['/tools/api-header-builder/', 'api-header-builder'],
    ] as const) {
      const page = await s.goto(path, 360, 'dark');
      if (name !== 'index') await run(page);
      expect(await page.evaluate('document.documentElement.scrollWidth'), path).toBeLessThanOrEqual(360);
      await shot(page, `${name}-360-dark`);
    }
  });

  it('axe-core finds no serious or critical violation, light and dark', async () => {
    const axe = await Session.start(browser, hub.base, { bypassCsp: true });
    const pages: [string, 'light' | 'dark', boolean][] = [
      ['/tools/', 'light', false],
      ['/tools/regex-tester/', 'light', true],
      ['/tools/color-palette/', 'dark', true],
      ['/tools/structured-diff/', 'dark', true],
    ];
    for (const [path, scheme, runIt] of pages) {
      const page = await axe.goto(path, 1100, scheme);
      if (runIt) await run(page);
      expect(await axeViolations(page), `${path} (${scheme})`).toEqual([]);
    }
    await axe.context.close();
  }, 60_000);
});

describe('tool pages in a browser, with API keys on', () => {
  const KEY = 'th_browser-key';
  let keyed: Instance;
  let k: Session;
  beforeAll(async () => {
    keyed = await startInstance({ API_KEYS_FILE: await apiKeysFile([{ id: 'browser', key: KEY }]) });
    k = await Session.start(browser, keyed.base);
  });
  afterAll(async () => {
    await k?.context.close();
    await stopInstance(keyed);
  });

  it('asks for the key, shows a 401 for a wrong one, runs with the right one and keeps it for the tab', async () => {
    const page = await k.goto('/tools/regex-tester/');
    const key = page.getByLabel(/^API key/);
    expect(await page.locator('pre.curl').first().textContent()).toContain(
      'Authorization: Bearer $TOOLHUB_API_KEY',
    );
    await key.fill('th_wrong');
    await run(page);
    expect(await page.locator('output#answer').textContent()).toContain('401');
    await key.fill(KEY);
    await run(page);
    expect(await page.locator('output#answer').textContent()).toContain('200');
    await k.goto('/tools/token-counter/');
    expect(await page.getByLabel(/^API key/).inputValue()).toBe(KEY); // sessionStorage, same tab
    await run(page);
    expect(await page.locator('output#answer').textContent()).toContain('200');
    expect(k.errors.filter((e) => !e.includes('401'))).toEqual([]);
  });
});
