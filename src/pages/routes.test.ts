import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { PAGE_CSP } from '../plugins/pages.js';
import { loadAssets } from './assets.js';
import { find, one, parse } from './test-helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const html = { accept: 'text/html,application/xhtml+xml' };

describe('the page routes', () => {
  it('redirects / to /tools/', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/tools/');
  });

  it('serves the index and every tool page with a strict CSP and an ETag', async () => {
    for (const url of ['/tools/', ...[...app.tools.keys()].map((id) => `/tools/${id}/`)]) {
      const res = await app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const again = await app.inject({ url, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
    expect(PAGE_CSP).toContain("default-src 'none'");
    expect(PAGE_CSP).toContain("script-src 'self';");
    expect(PAGE_CSP).not.toContain('unsafe');
  });

  it('renders the fixture tool form from its input schema (enum → select with an empty choice)', async () => {
    const doc = parse((await app.inject({ url: '/tools/fx-echo/' })).body);
    expect(one(doc, 'input', { name: 'text', type: 'text' }).attribs.required).toBe('');
    expect(one(doc, 'input', { name: 'repeat', type: 'number' }).attribs).toMatchObject({
      min: '1',
      max: '3',
      value: '1',
    });
    const level = one(doc, 'select', { name: 'level' });
    expect(find(level, 'option').map((o) => o.attribs.value)).toEqual(['', 'L', 'M', 'H']);
    expect(one(doc, 'select', { name: 'mode' })).toBeTruthy();
  });

  it('answers an unknown tool with a 404 page for a browser and a ToolRunError for other clients', async () => {
    for (const url of ['/tools/no-such-tool/', '/tools/a/b/c']) {
      const page = await app.inject({ url, headers: html });
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(page.body).toContain('<h1>No such page</h1>');
      const api = await app.inject({ url });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT' });
    }
    const escaped = await app.inject({ url: '/tools/%3Cscript%3E/', headers: html });
    expect(escaped.body).not.toContain('<script>');
  });

  it('keeps every non-2xx under /api/ a ToolRunError', async () => {
    const res = await app.inject({ url: '/api/no-such/', headers: html });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT' });
  });

  it('serves the assets under their content hash with long cache headers, and nothing else there', async () => {
    const assets = loadAssets();
    const page = (await app.inject({ url: '/tools/' })).body;
    expect(page).toContain(assets.urls.favicon!);
    for (const [name, asset] of assets.files) {
      const res = await app.inject({ url: `/tools/assets/${assets.hash}/${name}` });
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-type']).toBe(asset.type);
      expect(res.rawPayload.equals(asset.body)).toBe(true);
    }
    const stale = await app.inject({ url: '/tools/assets/0000000000000000/app.js' });
    expect(stale.statusCode).toBe(404);
    expect(stale.json()).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT' });
  });
});
