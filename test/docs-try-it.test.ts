import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, Session, shot } from './browser/harness.js';
import { freePort } from './helpers.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

/**
 * Swagger UI's "Try it out" from whatever address the hub is reached at (docs/api.md, "The
 * catalogue"): the document it loads lists the hub's own origin first, so a page opened at
 * 127.0.0.1 while PUBLIC_BASE_URL names localhost (or the reverse) calls its own origin,
 * which the /docs CSP (connect-src 'self') allows and which needs no CORS.
 */
let browser: Browser;
const hubs: Instance[] = [];
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  try {
    await browser?.close();
  } finally {
    for (const hub of hubs) await stopInstance(hub);
  }
});

/** A hub whose PUBLIC_BASE_URL is `advertised`, and a session on the same port under `opened`. */
async function hubAt(advertised: string, opened: string): Promise<Session> {
  const port = await freePort();
  hubs.push(
    await startInstance({ PUBLIC_BASE_URL: `http://${advertised}:${port}`, JUNK_LIMIT: '0' }, { port }),
  );
  return Session.start(browser, `http://${opened}:${port}`);
}

/** Opens GET /healthz in Swagger UI, clicks "Try it out" then "Execute", and returns the status shown. */
async function tryHealthz(page: Page): Promise<{ status: string; url: string }> {
  const op = page.locator('.opblock-get').filter({
    has: page.locator('.opblock-summary-path[data-path="/healthz"]'),
  });
  await op.locator('.opblock-summary').click();
  await op.getByRole('button', { name: 'Try it out' }).click();
  await op.getByRole('button', { name: 'Execute' }).click();
  const status = op.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor();
  const url = (await op.locator('.request-url pre').textContent()) ?? '';
  return { status: ((await status.textContent()) ?? '').trim(), url };
}

describe('/docs: Try it out from another address than PUBLIC_BASE_URL', () => {
  it.each([
    ['localhost', '127.0.0.1'],
    ['127.0.0.1', 'localhost'],
  ])(
    'PUBLIC_BASE_URL at %s, page opened at %s: the call reaches the hub',
    async (advertised, opened) => {
      const s = await hubAt(advertised, opened);
      try {
        const page = await s.goto('/docs');
        await page.locator('.opblock').first().waitFor();
        const { status, url } = await tryHealthz(page);
        expect(status).toBe('200');
        expect(url).toBe(`${s.base}/healthz`); // the origin the page was opened at
        await shot(page, `docs-try-it-${opened}`, false);
        expect(s.errors).toEqual([]); // a CSP or CORS refusal is a console error
        expect(s.foreign).toEqual([]);
      } finally {
        await s.context.close();
      }
      // A hub and Swagger UI in a real browser: 20 s and more beside a CPU-heavy neighbour on
      // two cores (the loaded proof timed out at vitest's 30 s); a bound, not a measure.
    },
    120_000,
  );
});
