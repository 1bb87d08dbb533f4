/**
 * JavaScript snippets (fetch, MSW v2, Express). Hand-written templates: no library
 * generates MSW handlers or Express routes from a response. Values enter through
 * literals.ts only.
 */

import { hasProtoKey } from '../_shared/json-exact.js';
import { jsJson, jsString } from '../_shared/literals.js';
import type { Route } from './route.js';

export interface MockSpec {
  route: Route;
  status: number;
  headers: Record<string, string>;
  /** False for HEAD and for statuses that forbid a body (204, 205, 304). */
  hasBody: boolean;
  body: unknown;
}

const headersLiteral = (headers: Record<string, string>): string =>
  `{ ${Object.entries(headers)
    .map(([k, v]) => `${jsString(k)}: ${jsString(v)}`)
    .join(', ')} }`;

/**
 * In an object literal a `__proto__` key sets the prototype and vanishes from the data,
 * so a body holding one is embedded as JSON text and parsed (JSON.parse keeps it as a key).
 */
const bodyLiteral = (body: unknown): string =>
  hasProtoKey(body) ? `JSON.parse(${jsString(JSON.stringify(body))})` : jsJson(body);

const bodyConst = (spec: MockSpec): string[] =>
  spec.hasBody ? [`const mockBody = ${bodyLiteral(spec.body)};`, ''] : [];

export function fetchSnippet(spec: MockSpec): string {
  const { route, status } = spec;
  const payload = spec.hasBody ? 'JSON.stringify(mockBody)' : 'null';
  return [
    `// Mock of ${route.method} ${route.path} for code that calls fetch(): matching requests get`,
    '// the canned response, every other request goes to the real fetch.',
    ...bodyConst(spec),
    `const mockPattern = new RegExp(${jsString(route.pattern)});`,
    'const realFetch = globalThis.fetch;',
    '',
    'globalThis.fetch = async (input, init = {}) => {',
    "  const request = typeof input === 'string' || input instanceof URL ? null : input;",
    "  const url = new URL(request ? request.url : String(input), 'http://localhost');",
    "  const method = (init.method ?? request?.method ?? 'GET').toUpperCase();",
    `  if (method === ${jsString(route.method)} && mockPattern.test(url.pathname)) {`,
    `    return new Response(${payload}, { status: ${status}, headers: ${headersLiteral(spec.headers)} });`,
    '  }',
    '  return realFetch(input, init);',
    '};',
  ].join('\n');
}

export function mswSnippet(spec: MockSpec): string {
  const { route, status } = spec;
  const response = spec.hasBody
    ? `HttpResponse.json(mockBody, { status: ${status} })`
    : `new HttpResponse(null, { status: ${status}, headers: ${headersLiteral(spec.headers)} })`;
  return [
    `// MSW v2 handler for ${route.method} ${route.path} (hand-written template: no library generates MSW handlers).`,
    "import { http, HttpResponse } from 'msw';",
    '',
    ...bodyConst(spec),
    'export const handlers = [',
    `  http.${route.method.toLowerCase()}(${jsString(route.path)}, () => ${response}),`,
    '];',
  ].join('\n');
}

export function expressSnippet(spec: MockSpec): string {
  const { route, status } = spec;
  let reply: string;
  if (spec.hasBody) reply = `res.status(${status}).json(mockBody);`;
  else if (spec.headers['Content-Type'])
    reply = `res.status(${status}).type(${jsString(spec.headers['Content-Type'])}).end();`;
  else reply = `res.status(${status}).end();`;
  return [
    `// Express mock server for ${route.method} ${route.path} (hand-written template).`,
    '// Run: npm install express && node mock-server.mjs',
    "import express from 'express';",
    '',
    'const app = express();',
    ...bodyConst(spec),
    `app.${route.method.toLowerCase()}(${jsString(route.path)}, (req, res) => {`,
    `  ${reply}`,
    '});',
    '',
    "app.listen(3000, () => console.log('Mock API on http://localhost:3000'));",
  ].join('\n');
}
