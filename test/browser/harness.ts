import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { projectRoot } from '../../src/paths.js';
import { type Instance, startInstance, stopInstance } from '../server-process.js';

/** Screenshots of every page land here (gitignored): CI keeps them as artefacts. */
export const ARTIFACTS = join(projectRoot, 'test-artifacts', 'pages');

/**
 * Debian's chromium (or CHROMIUM_PATH), never a downloaded build: `npm test` installs it
 * (scripts/provision-test-tools.sh). The flags suit a container without a GPU or /dev/shm room.
 */
export async function launch(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(
      `chromium is missing at ${executablePath}: 'npm test' installs Debian's chromium ` +
        '(bash scripts/provision-test-tools.sh, as root), or set CHROMIUM_PATH',
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
}

/** Stops what startHubAndBrowser started (either may be missing after a failed start). */
export async function stopHubAndBrowser(
  hub: Instance | undefined,
  browser: Browser | undefined,
): Promise<void> {
  try {
    await browser?.close();
  } finally {
    await stopInstance(hub);
  }
}

/**
 * A hub and a browser started at once. Whichever fails, the other is stopped before the
 * error is thrown: a browser that cannot launch must never leave a hub running.
 */
export async function startHubAndBrowser(
  env: Record<string, string>,
): Promise<{ hub: Instance; browser: Browser }> {
  const [started, launched] = await Promise.allSettled([startInstance(env), launch()]);
  if (started.status === 'fulfilled' && launched.status === 'fulfilled') {
    return { hub: started.value, browser: launched.value };
  }
  if (started.status === 'fulfilled') await stopInstance(started.value);
  if (launched.status === 'fulfilled') await launched.value.close().catch(() => {});
  throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
}

export interface SessionOptions {
  /** For axe only: addScriptTag inserts an inline script, which the pages' CSP refuses. */
  bypassCsp?: boolean;
}

/**
 * One page for many tests (a new renderer costs a second on a loaded machine): `goto`
 * starts a test's page afresh, with its own record of console errors and of requests
 * to anywhere but the hub (data: and about: URLs are not requests out).
 */
export class Session {
  readonly errors: string[] = [];
  readonly foreign: string[] = [];
  private constructor(
    readonly page: Page,
    readonly context: BrowserContext,
    readonly base: string,
  ) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.errors.push(m.text());
    });
    page.on('pageerror', (e) => this.errors.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 400) this.errors.push(`HTTP ${r.status()} ${r.url()}`);
    });
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.protocol !== 'data:' && url.protocol !== 'about:' && url.origin !== base)
        this.foreign.push(r.url());
    });
  }

  static async start(browser: Browser, base: string, opts: SessionOptions = {}): Promise<Session> {
    const context = await browser.newContext({ bypassCSP: opts.bypassCsp ?? false });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    return new Session(await context.newPage(), context, base);
  }

  /** Opens `path` at `width` px in the colour scheme, with empty error records. */
  async goto(path: string, width = 1100, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
    this.errors.length = 0;
    this.foreign.length = 0;
    await this.page.setViewportSize({ width, height: 900 });
    await this.page.emulateMedia({ colorScheme: scheme });
    await this.page.goto(`${this.base}${path}`, { waitUntil: 'load' });
    return this.page;
  }
}

export const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });

/** Runs the try-it form and waits for its answer. */
export async function run(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Run' }).click();
  await page.locator('output#answer .status').waitFor();
}

export interface Violation {
  id: string;
  impact: string | null;
  targets: string[];
}

/** axe-core in the page (from node_modules: nothing fetched): its serious and critical violations. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ path: join(projectRoot, 'node_modules', 'axe-core', 'axe.min.js') });
  const all = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
      id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) })))`,
  )) as Violation[];
  return all.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A computed style property of the first element matching `selector`. */
export function css(page: Page, selector: string, property: string): Promise<string> {
  const query = `getComputedStyle(document.querySelector(${JSON.stringify(selector)}))`;
  return page.evaluate(`${query}.getPropertyValue(${JSON.stringify(property)})`) as Promise<string>;
}
