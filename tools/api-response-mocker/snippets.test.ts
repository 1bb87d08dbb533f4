import { describe, expect, it } from 'vitest';
import { curlParts, serveExpress, serveFetch, serveMsw, servePython } from './test-harness.js';
import { mock } from './test-helpers.js';

// Every escape hazard: quotes, backslashes, script and comment openers, U+2028/2029,
// astral and combining characters, template syntax, a lone surrogate, control characters.
const NASTY = `it's "q" \\ \\' </script> <!-- é 😀 e\u0301 \u2028\u2029 \${x} \`cmd\` $HOME \ud800 \u0000\t\r\n end`;
const example = {
  message: NASTY,
  [NASTY]: [1, -2.5e-7, 1e21, null, true, false, '', {}],
  nested: { deep: [[NASTY]] },
};

describe('every target serves the body exactly (example with escape hazards)', async () => {
  const result = await mock({ response: example, route: 'POST /api/v1/items.json', status: 201 }, 'all');
  const body = result.response.body;

  it('returns the example itself', () => {
    expect(body).toEqual(example);
    expect(Object.keys(result.snippets)).toEqual(['fetch', 'msw', 'express', 'curl', 'python']);
  });

  it('fetch mock answers the route and passes the rest through', async () => {
    expect(await serveFetch(result.snippets.fetch!, '/api/v1/items.json', 'post')).toEqual({
      status: 201,
      body,
      real: false,
    });
    expect((await serveFetch(result.snippets.fetch!, '/api/v1/itemsXjson', 'POST')).real).toBe(true);
    expect((await serveFetch(result.snippets.fetch!, '/api/v1/items.json', 'GET')).real).toBe(true);
  });

  it('msw handler', () => {
    expect(serveMsw(result.snippets.msw!)).toEqual({
      method: 'post',
      path: '/api/v1/items.json',
      status: 201,
      body,
    });
  });

  it('express route', () => {
    expect(serveExpress(result.snippets.express!)).toEqual({
      method: 'post',
      path: '/api/v1/items.json',
      status: 201,
      body,
    });
  });

  it('curl call and expected body', () => {
    const { args, body: commented } = curlParts(result.snippets.curl!);
    expect(args).toEqual(['--include', '--request', 'POST', 'http://localhost:3000/api/v1/items.json']);
    expect(commented).toEqual(body);
  });

  it('python responses test', () => {
    expect(servePython(result.snippets.python!)).toEqual({ status: 201, body });
  });

  it('keeps script end tags out of the JavaScript snippets', () => {
    for (const t of ['fetch', 'msw', 'express'] as const)
      expect(result.snippets[t]).not.toMatch(/<\/script|<!--/i);
  });
});

describe('route parameters', async () => {
  const result = await mock({ response: { id: 7 }, route: 'GET /users/:id/posts/:postId' }, 'all');

  it('match any segment value in fetch, and keep the path syntax for MSW and Express', async () => {
    expect(await serveFetch(result.snippets.fetch!, 'http://api.test/users/42/posts/abc?x=1')).toMatchObject({
      body: { id: 7 },
      real: false,
    });
    expect((await serveFetch(result.snippets.fetch!, '/users/42/posts')).real).toBe(true);
    expect(serveMsw(result.snippets.msw!).path).toBe('/users/:id/posts/:postId');
    expect(serveExpress(result.snippets.express!).path).toBe('/users/:id/posts/:postId');
  });

  it('python matches the route with a regex', () => {
    expect(servePython(result.snippets.python!)).toEqual({ status: 200, body: { id: 7 } });
  });

  it('curl calls a sample path', () => {
    expect(curlParts(result.snippets.curl!).args.at(-1)).toBe('http://localhost:3000/users/1/posts/1');
  });
});

describe('responses without a body', () => {
  it('204 serves nothing and no Content-Type', async () => {
    const result = await mock(
      { response: { ignored: true }, route: 'DELETE /items/:id', status: 204 },
      'all',
    );
    expect(result.response).toEqual({ status: 204, headers: {}, body: null });
    expect(await serveFetch(result.snippets.fetch!, '/items/3', 'DELETE')).toEqual({
      status: 204,
      body: undefined,
      real: false,
    });
    expect(serveMsw(result.snippets.msw!)).toMatchObject({ status: 204, body: undefined });
    const served = serveExpress(result.snippets.express!);
    expect(served).toMatchObject({ status: 204, body: undefined });
    expect(served.type).toBeUndefined();
    expect(servePython(result.snippets.python!)).toEqual({ status: 204, body: null });
  });

  it('HEAD keeps the Content-Type and uses curl --head', async () => {
    const result = await mock({ response: '[1]', route: 'HEAD /ping' }, 'all');
    expect(result.response).toEqual({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: null,
    });
    expect(serveExpress(result.snippets.express!)).toMatchObject({
      method: 'head',
      type: 'application/json',
    });
    expect(curlParts(result.snippets.curl!).args).toEqual(['--head', 'http://localhost:3000/ping']);
  });
});
