import { describe, expect, it } from 'vitest';
import type { ToolErrorCode } from '#tool-kit';
import { expectToolError } from '../_shared/test-helpers.js';
import { mock } from './test-helpers.js';
import { MAX_ROUTE_CHARS, MAX_STATUS, MIN_STATUS } from './tool.js';

const fails = async (input: Record<string, unknown>, mode = 'all', code: ToolErrorCode = 'INVALID_INPUT') =>
  (await expectToolError(mock(input, mode), code)).message;

describe('examples', () => {
  it('returns the example with the defaults: GET /api/mock, 200, JSON', async () => {
    const r = await mock({ response: '{"id": 1, "name": "Zoë"}' }, 'all');
    expect(r.response).toEqual({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: { id: 1, name: 'Zoë' },
    });
    expect(r.route).toEqual({ method: 'GET', path: '/api/mock' });
    expect(r.source).toBe('example');
    expect(r.notes[0]).toMatch(/no data was synthesised/);
    expect(r).not.toHaveProperty('seed');
  });

  it.each([
    ['an array', '[1, "two"]', [1, 'two']],
    ['a JSON string', '"hello"', 'hello'],
    ['a number', 42, 42],
    ['null', 'null', null],
    ['an object that only looks like a schema', { type: 'user', name: 'x' }, { type: 'user', name: 'x' }],
    ['type with non-keywords', { type: 'object', id: 3 }, { type: 'object', id: 3 }],
    ['items holding data', { items: [{ id: 1 }] }, { items: [{ id: 1 }] }],
    ['a boolean items flag', { items: true }, { items: true }],
    ['properties holding data', { properties: { color: 'red' } }, { properties: { color: 'red' } }],
  ])('keeps %s as the body', async (_, response, body) => {
    expect((await mock({ response }, 'fetch')).response.body).toEqual(body);
  });

  it.each(['fetch', 'msw', 'express', 'curl', 'python'])(
    'target %s returns only its snippet',
    async (target) => {
      const r = await mock({ response: { ok: true } }, target);
      expect(Object.keys(r.snippets)).toEqual([target]);
      expect(r.snippets[target as 'fetch']).toContain('/api/mock');
    },
  );

  it('accepts an example near the 128 KiB input limit', async () => {
    const big = { items: Array.from({ length: 3200 }, (_, i) => ({ id: i, label: `item ${i} ✓` })) };
    expect(JSON.stringify(big).length).toBeGreaterThan(100_000);
    const r = await mock({ response: JSON.stringify(big) }, 'all');
    expect(r.response.body).toEqual(big);
    expect(r.snippets.fetch).toContain('"label":"item 3199 ✓"');
  });
});

describe('routes and statuses', () => {
  it.each([
    ['post /api/items', { method: 'POST', path: '/api/items' }],
    ['/health', { method: 'GET', path: '/health' }],
    ['  PATCH   /a/:id/b.json  ', { method: 'PATCH', path: '/a/:id/b.json' }],
  ])('parses %j', async (route, expected) => {
    expect((await mock({ response: {}, route }, 'curl')).route).toEqual(expected);
  });

  it.each([
    ['api/items', /must start with "\/"/],
    ['GET /a?b=1', /query string/],
    ['GET /a/*', /unsupported character "\*"/],
    ['GET /a/(b)', /unsupported character "\("/],
    ['GET /a/:1d', /parameter ":1d" is not a valid name/],
    ['GET /a/%zz', /malformed %-escape/],
    ['GET /a /b', /must look like `METHOD \/path`/],
    [`GET /${'a'.repeat(550)}`, /longer than 512/],
    [`GET /${'a'.repeat(MAX_ROUTE_CHARS)}`, /^route must NOT have more than 600 characters$/],
  ])('refuses the route %j', async (route, message) => {
    expect(await fails({ response: {}, route })).toMatch(message);
  });

  it('refuses an unknown route method, listing the known ones', async () => {
    const message = await fails({ response: {}, route: 'FETCH /a' }, 'all', 'UNSUPPORTED_OPTION');
    expect(message).toBe(
      "route method 'FETCH' is not supported; supported: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS",
    );
  });

  it.each([[201], ['404'], [599]])('accepts status %j', async (status) => {
    expect((await mock({ response: {}, status }, 'curl')).response.status).toBe(Number(status));
  });

  it.each([
    [MIN_STATUS - 1, `status must be >= ${MIN_STATUS}`],
    [MAX_STATUS + 1, `status must be <= ${MAX_STATUS}`],
    [2.5, 'status must be integer'],
    ['abc', 'status must be integer'],
    // The schema reads true as 1, as it does for the service.
    [true, `status must be >= ${MIN_STATUS}`],
  ])('refuses status %j', async (status, message) => {
    expect(await fails({ response: {}, status })).toBe(message);
  });

  it('refuses an informational status', async () => {
    expect(await fails({ response: {}, status: 101 })).toMatch(/informational/);
  });

  it('304 has no body and no Content-Type', async () => {
    expect((await mock({ response: { a: 1 }, status: 304 }, 'msw')).response).toEqual({
      status: 304,
      headers: {},
      body: null,
    });
  });
});

describe('other refusals', () => {
  it('an unknown target', async () => {
    const message = await fails({ response: {} }, 'axios', 'UNSUPPORTED_OPTION');
    expect(message).toBe(
      "target 'axios' is not supported; supported: all, fetch, msw, express, curl, python",
    );
  });

  it('a missing response', async () => {
    expect(await fails({})).toMatch(/response is required/);
  });

  it('response text that is not JSON', async () => {
    expect(await fails({ response: 'hello' })).toMatch(/response is not valid JSON/);
  });

  it('an example nested deeper than 64 levels', async () => {
    const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
    expect(await fails({ response: deep })).toMatch(/deeper than 64/);
    await expect(mock({ response: `${'['.repeat(64)}${']'.repeat(64)}` }, 'python')).resolves.toBeTruthy();
  });
});
