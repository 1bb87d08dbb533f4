import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  css,
  run,
  Session,
  shot,
  startHubAndBrowser,
  stopHubAndBrowser,
} from './browser/harness.js';
import type { Instance } from './server-process.js';

/** The tool pages as read on a 390 px phone (docs/api.md, "Tool pages"). */
const PHONE = 390;
let hub: Instance;
let browser: Browser;
let s: Session;
beforeAll(async () => {
  ({ hub, browser } = await startHubAndBrowser({ JUNK_LIMIT: '0' }));
  s = await Session.start(browser, hub.base);
});
afterAll(async () => {
  await stopHubAndBrowser(hub, browser);
});

const height = (page: Session['page']) =>
  page.evaluate('document.documentElement.scrollHeight') as Promise<number>;

describe('tool pages on a 390 px screen', () => {
  it('shows the tool’s view first and folds the JSON answer: a run adds less than a screen', async () => {
    const page = await s.goto('/tools/color-palette/', PHONE);
    const before = await height(page);
    await run(page);
    expect(await page.locator('.swatch').count()).toBeGreaterThan(0);
    expect(await page.locator('output details.json').getAttribute('open')).toBeNull();
    // The swatches, not the JSON of every colour (over 2,000 px unfolded).
    expect((await height(page)) - before).toBeLessThan(900);
    await shot(page, 'color-palette-390');
    expect(s.errors).toEqual([]);
  });

  it('token counter: the count is the headline of its view', async () => {
    const page = await s.goto('/tools/token-counter/', PHONE);
    await run(page);
    const json = JSON.parse((await page.locator('output details.json pre').textContent()) ?? '{}');
    const headline = page.locator('output .view .headline');
    expect(await headline.count()).toBe(1);
    expect(await headline.textContent()).toMatch(new RegExp(`^${json.result.tokens} tokens?$`));
    expect(Number.parseFloat(await css(page, 'output .view .headline strong', 'font-size'))).toBeGreaterThan(
      30,
    );
    await shot(page, 'token-counter-390');
  });

  it('regex: the pattern is typed in monospace, like the text area beside it', async () => {
    const page = await s.goto('/tools/regex-tester/', PHONE);
    expect(await css(page, '#f-pattern', 'font-family')).toBe(await css(page, '#f-text', 'font-family'));
    expect(await css(page, '#f-pattern', 'font-family')).toMatch(/mono/i);
  });

  it('the filter box’s focus ring is the accent colour, not the error colour', async () => {
    const page = await s.goto('/tools/', PHONE);
    await page.locator('#filter').focus();
    await page.keyboard.type('re');
    const ring = await css(page, '#filter', 'outline-color');
    expect(ring).toBe(await css(page, 'a', 'color')); // links are the accent colour
    expect(await css(page, '#filter', 'outline-style')).toBe('solid');
    await page.locator('.filter').screenshot({ path: `${ARTIFACTS}/filter-focus-390.png` });
  });

  it('the Limits list stacks every row the same way', async () => {
    const page = await s.goto('/tools/regex-tester/', PHONE);
    const stacked = (await page.evaluate(`[...document.querySelectorAll('.limits div')].map((row) =>
      row.querySelector('dd').getBoundingClientRect().top > row.querySelector('dt').getBoundingClientRect().top)`)) as boolean[];
    expect(stacked.length).toBeGreaterThan(4);
    expect(new Set(stacked)).toEqual(new Set([true]));
  });

  it('colour palette in convert mode: count is hidden and not sent, and no hint says “Generate only”', async () => {
    const page = await s.goto('/tools/color-palette/', PHONE);
    await page.getByLabel('scheme').selectOption('convert');
    expect(await page.locator('#f-count').isVisible()).toBe(false);
    expect(await page.locator('#f-format').isVisible()).toBe(true);
    const hints = await page.locator('form .field:visible .hint').allTextContents();
    expect(hints.join('\n')).not.toMatch(/Generate only/);
    expect(hints.join('\n')).not.toMatch(/only:.*\(\w+ only\)/);
    const sent = page.waitForRequest((r) => r.url().includes('/api/color-palette/convert/'));
    await run(page);
    expect(JSON.parse((await sent).postData() ?? '{}')).toEqual({ color: '#3b82f6', format: 'hex' });
    await page.locator('form.try').screenshot({ path: `${ARTIFACTS}/color-palette-convert-390.png` });
    await page.getByLabel('scheme').selectOption('triadic');
    expect(await page.locator('#f-count').isVisible()).toBe(true);
  });
});
