import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { DOCS_CSP } from './catalogue.js';
import { PAGE_CSP } from './pages.js';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

/** Swagger UI's own files, as installed (test/pages-browser.test.ts loads them in chromium). */
const uiStatic = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');

describe('/docs (Swagger UI) headers', () => {
  it.each([
    '/docs',
    '/docs/',
    '/docs/static/swagger-ui-bundle.js',
    '/docs/static/swagger-initializer.js',
    '/docs/static/swagger-ui.css',
    '/docs/json',
  ])('%s carries the tool pages’ policy: CSP, nosniff, referrer', async (url) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });

  it('keeps them on a missing file under /docs, and off every other route', async () => {
    const missing = await app.inject({ url: '/docs/static/nope.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-security-policy']).toBe(DOCS_CSP);
    const index = await app.inject({ url: '/api/skills-index.json' });
    expect(index.headers['content-security-policy']).toBeUndefined();
  });

  it('is the pages’ CSP plus one style hash: no unsafe-inline, no framing, scripts from the hub only', () => {
    const directives = (csp: string) => csp.split('; ');
    const extra = directives(DOCS_CSP).filter((d) => !directives(PAGE_CSP).includes(d));
    expect(extra).toEqual([expect.stringMatching(/^style-src 'self' 'sha256-[A-Za-z0-9+/]{43}='$/)]);
    expect(DOCS_CSP).not.toContain('unsafe');
    expect(DOCS_CSP).toContain("frame-ancestors 'none'");
    expect(DOCS_CSP).toContain("script-src 'self';");
  });

  it('lets in exactly the <style> elements the installed Swagger UI writes (recomputed hashes)', () => {
    const hashes = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'].flatMap((file) =>
      [
        ...readFileSync(join(uiStatic, file), 'utf8').matchAll(/createElement\("style",null,"([^"]*)"\)/g),
      ].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`),
    );
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(DOCS_CSP).toContain(hash);
  });

  it('lists the relative server first for Swagger UI; /api/openapi.json keeps PUBLIC_BASE_URL alone', async () => {
    const advertised = (await app.inject({ url: '/api/openapi.json' })).json().servers;
    expect(advertised).toEqual([{ url: 'http://localhost:8080' }]);
    const servers = (await app.inject({ url: '/docs/json' })).json().servers as { url: string }[];
    expect(servers.map((s) => s.url)).toEqual(['/', 'http://localhost:8080']);
  });

  it('serves a page with no inline script or style for the CSP to refuse', async () => {
    const body = (await app.inject({ url: '/docs' })).body;
    expect(body.match(/<script\b[^>]*>/g)?.every((tag) => /\bsrc=/.test(tag))).toBe(true);
    expect(body).not.toMatch(/<style\b|\sstyle=/);
  });
});
