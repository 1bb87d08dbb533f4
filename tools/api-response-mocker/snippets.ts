import { jsonText, pyLiteral, pyString, shellQuote } from '../_shared/literals.js';
import { expressSnippet, fetchSnippet, type MockSpec, mswSnippet } from './snippets-js.js';
import type { Target } from './tool.js';

export type { MockSpec } from './snippets-js.js';

/** Where the Express snippet listens; the cURL and Python snippets call it there. */
const BASE = 'http://localhost:3000';

const WRITERS: Record<Target, (spec: MockSpec) => string> = {
  fetch: fetchSnippet,
  msw: mswSnippet,
  express: expressSnippet,
  curl: curlSnippet,
  python: pythonSnippet,
};

export function buildSnippets(spec: MockSpec, targets: readonly Target[]): Partial<Record<Target, string>> {
  return Object.fromEntries(targets.map((t) => [t, WRITERS[t](spec)]));
}

/** A curl call of the mock route, the expected answer in comments (hand-written template). */
function curlSnippet(spec: MockSpec): string {
  const { route, status } = spec;
  const url = shellQuote(BASE + route.samplePath);
  const call =
    route.method === 'HEAD' ? `curl --head ${url}` : `curl --include --request ${route.method} ${url}`;
  const headerLines = Object.entries(spec.headers).map(([k, v]) => `# ${k}: ${v}`);
  // JSON text never holds a raw line break, so each line stays inside its comment.
  const bodyLines = spec.hasBody
    ? [
        '#',
        ...jsonText(spec.body)
          .split('\n')
          .map((l) => `# ${l}`),
      ]
    : [];
  return [
    `# Call the mock of ${route.method} ${route.path} (e.g. the Express snippet) on ${BASE}.`,
    `# Expected: HTTP ${status}`,
    ...headerLines,
    ...bodyLines,
    call,
  ].join('\n');
}

/** A pytest-style test with the `responses` library mocking the route (hand-written template). */
function pythonSnippet(spec: MockSpec): string {
  const { route, status } = spec;
  const method = route.method.toLowerCase();
  const url = pyString(BASE + route.samplePath);
  const hasParams = route.samplePath !== route.path;
  const match = hasParams
    ? `re.compile(${pyString(`^${BASE.replace(/[.]/g, '\\.')}${route.pattern.slice(1)}`)})`
    : url;
  const contentType = spec.headers['Content-Type'];
  const args = [`responses.${route.method}`, match, `status=${status}`];
  if (spec.hasBody) args.push('body=json.dumps(MOCK_BODY)');
  if (contentType) args.push(`content_type=${pyString(contentType)}`);
  return [
    `# Mock of ${route.method} ${route.path} with the responses library (pip install requests responses).`,
    ...(spec.hasBody ? ['import json'] : []),
    ...(hasParams ? ['import re'] : []),
    '',
    'import requests',
    'import responses',
    '',
    ...(spec.hasBody ? [`MOCK_BODY = ${pyLiteral(spec.body)}`, ''] : []),
    '',
    '@responses.activate',
    'def test_mock():',
    `    responses.add(${args.join(', ')})`,
    `    resp = requests.${method}(${url})`,
    `    assert resp.status_code == ${status}`,
    ...(spec.hasBody ? ['    assert resp.json() == MOCK_BODY'] : []),
    '',
    '',
    'if __name__ == "__main__":',
    '    test_mock()',
    '    print("ok")',
  ].join('\n');
}
