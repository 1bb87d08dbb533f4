import { type ToolInput, ToolInputError } from '#tool-kit';
import { parseBody } from './parse-body.js';
import { parseHeaders } from './parse-headers.js';
import { buildSnippets, type Snippets } from './snippets.js';

export interface HeaderBuilderResult {
  request: { method: string; url: string; headers: Record<string, string>; body: string | null };
  /** How the body is sent: none, json (Content-Type application/json) or text. */
  bodyType: 'none' | 'json' | 'text';
  snippets: Snippets;
  warnings: string[];
}

/** Input as the schema in tool.ts passed it; the mode is one of its METHODS, as spelt there. */
export default async function run(input: ToolInput, mode: string): Promise<HeaderBuilderResult> {
  const method = mode;
  const url = parseUrl(input.url as string);
  const { list: headers, warnings } = parseHeaders(input.headers);

  const contentTypeAt = headers.findIndex(([name]) => name.toLowerCase() === 'content-type');
  const body = parseBody(input.body, headers[contentTypeAt]?.[1], warnings);
  if (body.kind !== 'none' && (method === 'GET' || method === 'HEAD')) {
    throw new ToolInputError(
      `a ${method} request cannot carry a body (fetch refuses it and servers ignore it); use POST, PUT or PATCH`,
    );
  }
  if (contentTypeAt < 0 && body.kind === 'json') headers.push(['Content-Type', 'application/json']);
  // Without a type, curl would label a text body as a form and fetch as text/plain: say it once for all.
  if (contentTypeAt < 0 && body.kind === 'text') headers.push(['Content-Type', 'text/plain; charset=utf-8']);

  return {
    request: { method, url, headers: Object.fromEntries(headers), body: body.text },
    bodyType: body.kind,
    snippets: buildSnippets({ method, url, headers, body }),
    warnings,
  };
}

/** An absolute http(s) URL, normalised by WHATWG URL; the fragment is never sent, so it goes. */
function parseUrl(raw: string): string {
  const text = raw.trim();
  // The schema refuses an empty url, but not one of blanks.
  if (text === '') throw new ToolInputError('url is required');
  // WHATWG URL silently drops tabs and newlines; refuse every control character instead.
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new ToolInputError('url contains a control character');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolInputError(`url ${JSON.stringify(text.slice(0, 200))} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolInputError(`url scheme ${url.protocol.slice(0, -1)} is not supported; use http or https`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ToolInputError('url must not contain credentials; send them in an Authorization header');
  }
  url.hash = '';
  return url.href;
}
