import { type HarRequest, HTTPSnippet } from 'httpsnippet';
import { jsJson, jsString, pyLiteral, pyString, shellQuote } from '../_shared/literals.js';
import type { Body } from './parse-body.js';

export interface SnippetRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: Body;
}

export interface Snippets {
  curl: string;
  fetch: string;
  axios: string;
  python: string;
}

/**
 * httpsnippet writes the code skeleton; every user-supplied value (URL, header values,
 * body) enters it as an opaque lowercase token and is then replaced by a literal from
 * literals.ts, because httpsnippet 3 mis-escapes backslashes in JS and Python output and
 * uses `--data`, which reads a file when the body starts with `@`. Header names are
 * passed as is: RFC 7230 tokens contain no quote or backslash that could break a literal.
 */
export function buildSnippets(req: SnippetRequest): Snippets {
  const tok = tokens(req);
  const har: HarRequest = {
    method: req.method,
    url: tok.url,
    httpVersion: 'HTTP/1.1',
    headers: req.headers.map(([name], i) => ({ name, value: tok.header(i) })),
    cookies: [],
    queryString: [],
    headersSize: -1,
    bodySize: -1,
    postData: postData(req.body, tok.body),
  };
  const snippet = new HTTPSnippet(har);
  const convert = (target: 'shell' | 'javascript' | 'python', client: string): string => {
    const out = snippet.convert(target, client);
    if (typeof out !== 'string') throw new Error(`httpsnippet produced no ${target}/${client} snippet`);
    return out;
  };
  return {
    curl: curl(convert('shell', 'curl'), req, tok),
    fetch: fetchJs(convert('javascript', 'fetch'), req, tok),
    axios: axiosJs(convert('javascript', 'axios'), req, tok),
    python: python(convert('python', 'requests'), req, tok),
  };
}

interface Tokens {
  url: string;
  body: string;
  header: (i: number) => string;
}

/** Tokens that no header name contains, so a replacement can only hit its own slot. */
function tokens(req: SnippetRequest): Tokens {
  let prefix = 'hsph';
  const names = req.headers.map(([name]) => name.toLowerCase());
  while (names.some((name) => name.includes(prefix))) prefix += 'q';
  return { url: `http://${prefix}url/`, body: `${prefix}body`, header: (i) => `${prefix}h${i}` };
}

/** Only JSON and text/plain reach httpsnippet: its multipart path (form-data streams) stays unused. */
function postData(body: Body, token: string): HarRequest['postData'] {
  if (body.kind === 'none') return undefined as unknown as HarRequest['postData'];
  // A JSON string token keeps httpsnippet on its JSON path (json=, object data) without the real value.
  if (body.kind === 'json') return { mimeType: 'application/json', text: JSON.stringify(token) };
  return { mimeType: 'text/plain', text: token };
}

/** Replaces the single occurrence of `from`; anything else means httpsnippet changed shape. */
function replaceOnce(code: string, from: string, to: string): string {
  const at = code.indexOf(from);
  if (at < 0 || code.indexOf(from, at + from.length) >= 0) {
    throw new Error(`snippet template changed: expected one ${JSON.stringify(from)}`);
  }
  return code.slice(0, at) + to + code.slice(at + from.length);
}

function curl(code: string, req: SnippetRequest, tok: Tokens): string {
  let out = replaceOnce(code, `--url ${tok.url}`, `--url ${shellQuote(req.url)}`);
  // `--request HEAD` makes curl wait for a body that never comes; --head is the HEAD request.
  if (req.method === 'HEAD') out = replaceOnce(out, 'curl --request HEAD', 'curl --head');
  req.headers.forEach(([, value], i) => {
    out = replaceOnce(out, `${tok.header(i)}'`, `${value.replace(/'/g, "'\\''")}'`);
  });
  if (req.body.kind === 'json') {
    out = replaceOnce(out, `--data '${JSON.stringify(tok.body)}'`, `--data-raw ${shellQuote(req.body.text)}`);
  } else if (req.body.kind === 'text') {
    out = replaceOnce(out, `--data ${tok.body}`, `--data-raw ${shellQuote(req.body.text)}`);
  }
  return out;
}

function jsCommon(code: string, req: SnippetRequest, tok: Tokens): string {
  let out = replaceOnce(code, `'${tok.url}'`, jsString(req.url));
  req.headers.forEach(([, value], i) => {
    out = replaceOnce(out, `'${tok.header(i)}'`, jsString(value));
  });
  return out;
}

function fetchJs(code: string, req: SnippetRequest, tok: Tokens): string {
  let out = jsCommon(code, req, tok);
  if (req.body.kind === 'json') {
    out = replaceOnce(
      out,
      `'${JSON.stringify(tok.body)}'`,
      `JSON.stringify(${jsJson(req.body.value, '  ')})`,
    );
  } else if (req.body.kind === 'text') {
    out = replaceOnce(out, `'${tok.body}'`, jsString(req.body.text));
  }
  // A HEAD response has no body to parse.
  if (req.method === 'HEAD')
    out = replaceOnce(out, 'await response.json()', 'Object.fromEntries(response.headers)');
  return out;
}

function axiosJs(code: string, req: SnippetRequest, tok: Tokens): string {
  const out = jsCommon(code, req, tok);
  if (req.body.kind === 'json') return replaceOnce(out, `'${tok.body}'`, jsJson(req.body.value, '  '));
  if (req.body.kind === 'text') return replaceOnce(out, `'${tok.body}'`, jsString(req.body.text));
  return out;
}

function python(code: string, req: SnippetRequest, tok: Tokens): string {
  let out = replaceOnce(code, `"${tok.url}"`, pyString(req.url));
  req.headers.forEach(([, value], i) => {
    out = replaceOnce(out, `"${tok.header(i)}"`, pyString(value));
  });
  if (req.body.kind === 'json') out = replaceOnce(out, `"${tok.body}"`, pyLiteral(req.body.value));
  // A str body would be encoded as Latin-1 by http.client; send the UTF-8 bytes.
  if (req.body.kind === 'text')
    out = replaceOnce(out, `"${tok.body}"`, `${pyString(req.body.text)}.encode("utf-8")`);
  if (req.method === 'HEAD') out = replaceOnce(out, 'print(response.json())', 'print(response.headers)');
  return out;
}
