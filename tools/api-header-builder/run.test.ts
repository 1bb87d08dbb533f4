import { describe, expect, it } from 'vitest';
import type { ToolErrorCode } from '#tool-kit';
import { expectToolError } from '../_shared/test-helpers.js';
import { buildRequest } from './test-harness.js';
import { MAX_BODY_CHARS, MAX_HEADERS, MAX_URL_CHARS } from './tool.js';

const fails = async (input: Record<string, unknown>, mode: string, code: ToolErrorCode = 'INVALID_INPUT') =>
  (await expectToolError(buildRequest(input, mode), code)).message;
const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`X-${i}`, '1']));

const url = 'https://api.example.com/items';

describe('request', () => {
  it('builds a GET without body or added headers', async () => {
    const r = await buildRequest({ url }, 'GET');
    expect(r.request).toEqual({ method: 'GET', url, headers: {}, body: null });
    expect(r.bodyType).toBe('none');
    expect(r.snippets.curl).toBe(`curl --request GET \\\n  --url '${url}'`);
  });

  it('normalises the URL and drops the fragment', async () => {
    const r = await buildRequest({ url: '  HTTPS://Example.COM:443/a b?x=1#top ' }, 'GET');
    expect(r.request.url).toBe('https://example.com/a%20b?x=1');
  });

  it('sends a JSON value compactly with application/json', async () => {
    const r = await buildRequest({ url, body: { name: 'Zoë', tags: ['a'] } }, 'POST');
    expect(r.request.body).toBe('{"name":"Zoë","tags":["a"]}');
    expect(r.request.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(r.bodyType).toBe('json');
  });

  it('reads JSON text as JSON and keeps a given JSON content type', async () => {
    const r = await buildRequest(
      { url, headers: { 'content-type': 'application/vnd.api+json' }, body: ' [1, 2] ' },
      'PUT',
    );
    expect(r.request.body).toBe('[1,2]');
    expect(r.request.headers).toEqual({ 'content-type': 'application/vnd.api+json' });
  });

  it('keeps JSON-looking text as text when the content type says so', async () => {
    const r = await buildRequest({ url, headers: 'Content-Type: text/csv', body: '{"a":1}' }, 'POST');
    expect(r.bodyType).toBe('text');
    expect(r.request.body).toBe('{"a":1}');
  });

  it('sends unparseable JSON-looking text as text, with a warning', async () => {
    const r = await buildRequest({ url, body: '{"a":1,}' }, 'POST');
    expect(r.bodyType).toBe('text');
    expect(r.warnings[0]).toMatch(/does not parse/);
  });

  it('parses `Name: value` lines, merges repeats and drops Content-Length', async () => {
    const headers =
      'Accept: text/html\r\n\nX-Empty:\naccept:  application/json \nContent-Length: 99\nCookie: a=1\ncookie: b=2';
    const r = await buildRequest({ url, headers }, 'DELETE');
    expect(r.request.headers).toEqual({
      Accept: 'text/html, application/json',
      'X-Empty': '',
      Cookie: 'a=1; b=2',
    });
    expect(r.warnings).toEqual(['Content-Length was dropped: the client computes it from the body']);
  });

  it('accepts headers as JSON text with numbers, and the method in lower case', async () => {
    const r = await buildRequest({ url, headers: '{"X-Retry": 3, "X-Flag": true}' }, 'options');
    expect(r.request).toMatchObject({ method: 'OPTIONS', headers: { 'X-Retry': '3', 'X-Flag': 'true' } });
  });

  it('accepts 100 headers and a body at the size limit', async () => {
    const headers = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`X-H${i}`, `v${i}`]));
    const r = await buildRequest({ url, headers, body: 'x'.repeat(MAX_BODY_CHARS) }, 'POST');
    expect(Object.keys(r.request.headers)).toHaveLength(101);
    expect(r.request.body).toHaveLength(MAX_BODY_CHARS);
  });
});

describe('refusals', () => {
  it.each([
    ['a relative URL', { url: '/items' }, /not an absolute URL/],
    ['another scheme', { url: 'ftp://example.com/f' }, /scheme ftp is not supported/],
    ['credentials in the URL', { url: 'https://u:p@example.com/' }, /credentials/],
    ['a newline in the URL', { url: 'https://example.com/a\nb' }, /control character/],
    ['an empty URL', { url: '' }, /^url must NOT have fewer than 1 characters$/],
    ['a URL of blanks', { url: '   ' }, /^url is required$/],
    ['a missing URL', {}, /^url is required$/],
    [
      'a URL that is too long',
      { url: `https://e.com/${'a'.repeat(8200)}` },
      `more than ${MAX_URL_CHARS} characters`,
    ],
  ])('%s', async (_, input, message) => {
    expect(await fails(input, 'GET')).toMatch(message);
  });

  it.each([
    ['CRLF in a JSON value', { 'X-Safe': 'a\r\nX-Evil: 1' }, /header X-Safe: the value contains CR or LF/],
    ['a bare CR in a line', 'X-Line: a\rb', /header X-Line: the value contains CR or LF/],
    [
      'a NUL byte',
      { 'X-Nul': 'a\u0000' },
      /header X-Nul: the value contains a control character \(U\+0000\)/,
    ],
    ['a non-Latin-1 character', { 'X-Emoji': '😀' }, /header X-Emoji: .*percent-encode/],
    ['a space in a name', { 'Bad Name': 'v' }, /"Bad Name" is not a valid HTTP token/],
    ['a name with a colon', ':authority: x', /line 1 is not of the form/],
    ['a line without colon', 'Accept: */*\nnot a header', /line 2 is not of the form/],
    ['a folded line', 'X-A: 1\n  continued', /line 2 starts with whitespace/],
    ['a nested object value', { 'X-Obj': { a: 1 } }, /X-Obj: the value must be a string/],
    ['an array of headers', [['A', 'b']], /^headers must be object,string$/],
    ['invalid JSON text', '{"A": }', /headers is not valid JSON/],
    ['a __proto__ name', '__proto__: x', /"__proto__" is not supported/],
    ['101 headers', many(MAX_HEADERS + 1), `headers must NOT have more than ${MAX_HEADERS} properties`],
    ['101 headers as JSON text', JSON.stringify(many(MAX_HEADERS + 1)), /too many headers/],
    [
      '101 header lines',
      Object.keys(many(MAX_HEADERS + 1))
        .map((name) => `${name}: 1`)
        .join('\n'),
      /too many headers/,
    ],
  ])('headers with %s', async (_, headers, message) => {
    expect(await fails({ url, headers }, 'GET')).toMatch(message);
  });

  it.each(['GET', 'HEAD'])('a body on %s', async (method) => {
    expect(await fails({ url, body: '{"a":1}' }, method)).toMatch(`a ${method} request cannot carry a body`);
  });

  it('invalid JSON under a JSON content type', async () => {
    const message = await fails(
      { url, headers: { 'Content-Type': 'application/json' }, body: 'hello' },
      'POST',
    );
    expect(message).toMatch(/body is not valid JSON but Content-Type is application\/json/);
  });

  it('a control character in a text body', async () => {
    expect(await fails({ url, body: 'a\u0001b' }, 'POST')).toMatch(/control character U\+0001/);
  });

  it('a body over the size limit', async () => {
    expect(await fails({ url, body: 'x'.repeat(MAX_BODY_CHARS + 1) }, 'POST')).toMatch(
      `body must NOT have more than ${MAX_BODY_CHARS} characters`,
    );
  });

  it('JSON nested deeper than 64 levels, but not 64', async () => {
    const nest = (n: number): unknown => (n === 0 ? 1 : [nest(n - 1)]);
    await expect(buildRequest({ url, body: nest(64) }, 'POST')).resolves.toMatchObject({ bodyType: 'json' });
    expect(await fails({ url, body: nest(65) }, 'POST')).toMatch(/deeper than 64/);
  });

  it('an unknown method, listing the supported ones', async () => {
    const message = await fails({ url }, 'TRACE', 'UNSUPPORTED_OPTION');
    expect(message).toBe(
      "method 'TRACE' is not supported; supported: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS",
    );
  });
});
