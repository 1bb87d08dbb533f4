import { describe, expect, it, vi } from 'vitest';
import { buildRequest, curlArgs, runAxios, runFetch, runPython } from './test-harness.js';
import { METHODS } from './tool.js';

// Every escape hazard at once: quotes, backslashes, a script end tag, newlines, U+2028,
// astral and combining characters, a shell expansion and a template literal.
const NASTY = `it's "q" \\ \\' </script> <!-- é 😀 e\u0301 \u2028 line\nnext $HOME \`cmd\` \${x}`;
const HEADER = `it's "q" \\ $HOME \`x\` é`;

const input = {
  url: "https://api.example.com/v1/it's/items?q=a b&x=\\",
  headers: { Authorization: 'Bearer t0k3n', "X-It's": HEADER, 'X-hsph0': 'collides with the token prefix' },
  body: {
    text: NASTY,
    list: [1, 2.5, -0.125, null, true, false],
    nested: { empty: {}, arr: [] },
    [NASTY]: 'key',
  },
};

describe('snippets send exactly the built request', async () => {
  const result = await buildRequest(input, 'POST');
  const { request } = result;

  it('fetch', async () => {
    const sent = await runFetch(result.snippets.fetch);
    expect(sent).toEqual({ url: request.url, method: 'POST', headers: request.headers, body: request.body });
  });

  it('axios', async () => {
    const sent = await runAxios(result.snippets.axios);
    expect(sent).toEqual({ url: request.url, method: 'POST', headers: request.headers, body: input.body });
  });

  it('curl (through a real shell)', () => {
    const args = curlArgs(result.snippets.curl);
    expect(args.slice(0, 4)).toEqual(['--request', 'POST', '--url', request.url]);
    const headers = args.flatMap((a, i) => (args[i - 1] === '--header' ? [a] : []));
    expect(headers.sort()).toEqual(
      Object.entries(request.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .sort(),
    );
    expect(args[args.indexOf('--data-raw') + 1]).toBe(request.body);
    expect(args).not.toContain('--data');
  });

  it('python requests', () => {
    const sent = runPython(result.snippets.python);
    expect(sent).toEqual({ url: request.url, method: 'POST', headers: request.headers, body: input.body });
  });
});

describe('text bodies', async () => {
  const result = await buildRequest(
    { url: 'http://localhost:8080/upload', body: `@/etc/passwd ${NASTY}` },
    'PUT',
  );

  it('is sent as text/plain, never as a curl file reference', () => {
    expect(result.bodyType).toBe('text');
    expect(result.request.headers['Content-Type']).toBe('text/plain; charset=utf-8');
    expect(result.snippets.curl).toContain("--data-raw '@/etc/passwd");
  });

  it('reaches every client unchanged', async () => {
    expect((await runFetch(result.snippets.fetch)).body).toBe(result.request.body);
    expect((await runAxios(result.snippets.axios)).body).toBe(result.request.body);
    const args = curlArgs(result.snippets.curl);
    expect(args[args.indexOf('--data-raw') + 1]).toBe(result.request.body);
    expect(runPython(result.snippets.python).body).toBe(result.request.body);
  });
});

describe('every method', () => {
  it.each(METHODS)('%s builds four snippets that use the method', async (method) => {
    const result = await buildRequest(
      { url: 'https://example.org/', headers: 'Accept: application/json' },
      method,
    );
    expect(Object.keys(result.snippets).sort()).toEqual(['axios', 'curl', 'fetch', 'python']);
    expect((await runFetch(result.snippets.fetch)).method).toBe(method);
    expect((await runAxios(result.snippets.axios)).method).toBe(method);
    expect(runPython(result.snippets.python).method).toBe(method);
    if (method !== 'HEAD') expect(curlArgs(result.snippets.curl).slice(0, 2)).toEqual(['--request', method]);
  });

  it('HEAD uses curl --head and reads no response body', async () => {
    const result = await buildRequest({ url: 'https://example.org/' }, 'HEAD');
    expect(result.snippets.curl.startsWith('curl --head')).toBe(true);
    expect(result.snippets.fetch).not.toContain('response.json()');
    expect(result.snippets.python).toContain('print(response.headers)');
  });
});

describe('quiet and deterministic', () => {
  it('prints nothing and gives the same output twice', async () => {
    const spies = [
      vi.spyOn(console, 'log'),
      vi.spyOn(console, 'info'),
      vi.spyOn(console, 'warn'),
      vi.spyOn(console, 'error'),
      vi.spyOn(process, 'emitWarning'),
    ];
    const a = await buildRequest(input, 'PATCH');
    const b = await buildRequest(input, 'PATCH');
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(a).toEqual(b);
  });
});

describe('values that look like the template', () => {
  // Before: the second replacement found its token twice (once inside the URL) and threw,
  // which the service reports as INTERNAL_ERROR.
  it.each([
    ['a URL ending in a header token', { url: 'https://e.com/?q=hsphh0', headers: 'A: b' }, 'GET'],
    ['a header value holding the next token', { url: 'https://e.com/', headers: "A: hsphh1'\nB: c" }, 'GET'],
    [
      'a header value that is template code',
      { url: 'https://e.com/', headers: 'X: await response.json()' },
      'HEAD',
    ],
    [
      'a Python template line in a value',
      { url: 'https://e.com/', headers: 'X: print(response.json())' },
      'HEAD',
    ],
  ])('%s', async (_, input, method) => {
    const result = await buildRequest(input, method);
    const sent = await runFetch(result.snippets.fetch);
    expect(sent).toMatchObject({ url: result.request.url, headers: result.request.headers });
    expect((await runAxios(result.snippets.axios)).headers).toEqual(result.request.headers);
    expect(runPython(result.snippets.python).headers).toEqual(result.request.headers);
    expect(curlArgs(result.snippets.curl)).toContain(result.request.url);
  });
});
