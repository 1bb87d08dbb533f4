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
 * All replacements of a snippet happen in one pass over httpsnippet's output, so a value
 * that happens to contain a token (or `await response.json()`) is never rewritten.
 */
export function buildSnippets(req: SnippetRequest): Snippets {
  // A JSON body that no code literal reproduces exactly (see json-exact.ts) is sent as its text.
  const body: Body =
    req.body.kind === 'json' && req.body.asText ? { kind: 'text', text: req.body.text } : req.body;
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
    postData: postData(body, tok.body),
  };
  const snippet = new HTTPSnippet(har);
  const convert = (target: 'shell' | 'javascript' | 'python', client: string): string => {
    const out = snippet.convert(target, client);
    if (typeof out !== 'string') throw new Error(`httpsnippet produced no ${target}/${client} snippet`);
    return out;
  };
  const plain = { ...req, body };
  return {
    curl: substitute(convert('shell', 'curl'), curl(plain, tok)),
    fetch: substitute(convert('javascript', 'fetch'), fetchJs(plain, tok)),
    axios: substitute(convert('javascript', 'axios'), axiosJs(plain, tok)),
    python: substitute(convert('python', 'requests'), python(plain, tok)),
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

/** Pieces of httpsnippet's output (`from`) and what replaces them. */
type Edits = [from: string, to: string][];

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces every `from` in one left-to-right pass, so replaced text is never scanned
 * again. Each `from` must occur exactly once; anything else means httpsnippet changed shape.
 */
function substitute(code: string, edits: Edits): string {
  if (edits.length === 0) return code;
  const to = new Map(edits);
  const seen = new Map<string, number>();
  const pattern = new RegExp(edits.map(([from]) => escapeRegExp(from)).join('|'), 'g');
  const out = code.replace(pattern, (found) => {
    seen.set(found, (seen.get(found) ?? 0) + 1);
    return to.get(found)!;
  });
  for (const [from] of edits) {
    if (seen.get(from) !== 1)
      throw new Error(`snippet template changed: expected one ${JSON.stringify(from)}`);
  }
  return out;
}

function curl(req: SnippetRequest, tok: Tokens): Edits {
  const edits: Edits = [[`--url ${tok.url}`, `--url ${shellQuote(req.url)}`]];
  // `--request HEAD` makes curl wait for a body that never comes; --head is the HEAD request.
  if (req.method === 'HEAD') edits.push(['curl --request HEAD', 'curl --head']);
  req.headers.forEach(([, value], i) => {
    edits.push([`${tok.header(i)}'`, `${value.replace(/'/g, "'\\''")}'`]);
  });
  if (req.body.kind === 'json') {
    edits.push([`--data '${JSON.stringify(tok.body)}'`, `--data-raw ${shellQuote(req.body.text)}`]);
  } else if (req.body.kind === 'text') {
    edits.push([`--data ${tok.body}`, `--data-raw ${shellQuote(req.body.text)}`]);
  }
  return edits;
}

function jsCommon(req: SnippetRequest, tok: Tokens): Edits {
  const edits: Edits = [[`'${tok.url}'`, jsString(req.url)]];
  req.headers.forEach(([, value], i) => {
    edits.push([`'${tok.header(i)}'`, jsString(value)]);
  });
  return edits;
}

function fetchJs(req: SnippetRequest, tok: Tokens): Edits {
  const edits = jsCommon(req, tok);
  if (req.body.kind === 'json') {
    edits.push([`'${JSON.stringify(tok.body)}'`, `JSON.stringify(${jsJson(req.body.value, '  ')})`]);
  } else if (req.body.kind === 'text') {
    edits.push([`'${tok.body}'`, jsString(req.body.text)]);
  }
  // A HEAD response has no body to parse.
  if (req.method === 'HEAD') edits.push(['await response.json()', 'Object.fromEntries(response.headers)']);
  return edits;
}

function axiosJs(req: SnippetRequest, tok: Tokens): Edits {
  const edits = jsCommon(req, tok);
  if (req.body.kind === 'json') edits.push([`'${tok.body}'`, jsJson(req.body.value, '  ')]);
  if (req.body.kind === 'text') edits.push([`'${tok.body}'`, jsString(req.body.text)]);
  return edits;
}

function python(req: SnippetRequest, tok: Tokens): Edits {
  const edits: Edits = [[`"${tok.url}"`, pyString(req.url)]];
  req.headers.forEach(([, value], i) => {
    edits.push([`"${tok.header(i)}"`, pyString(value)]);
  });
  if (req.body.kind === 'json') edits.push([`"${tok.body}"`, pyLiteral(req.body.value)]);
  // A str body would be encoded as Latin-1 by http.client; send the UTF-8 bytes.
  if (req.body.kind === 'text') edits.push([`"${tok.body}"`, `${pyString(req.body.text)}.encode("utf-8")`]);
  if (req.method === 'HEAD') edits.push(['print(response.json())', 'print(response.headers)']);
  return edits;
}
