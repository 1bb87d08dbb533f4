import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorBody, type TestApp } from './helpers.js';

/**
 * Every real tool over HTTP: the generic runtime and the dedicated endpoint give the
 * same result for the same input, and bad input gets the right code on both.
 */
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp({}, true);
});
afterAll(async () => {
  await app.close();
});

interface Case {
  toolId: string;
  generic: Record<string, unknown>;
  path: string;
  fields: Record<string, unknown>;
  check: (result: Record<string, unknown>) => void;
  /** Fields that legitimately differ between two calls (e.g. the current time). */
  volatile?: string[];
}

const stable = (result: Record<string, unknown>, volatile: string[] = []) =>
  Object.fromEntries(Object.entries(result).filter(([k]) => !volatile.includes(k)));

const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
/** OpenAI strict mode refuses a required name that properties does not declare ("Extra required key"). */
const extraRequired = { ...schema, additionalProperties: false, required: ['n', 'ghost'] };
const cases: Case[] = [
  {
    toolId: 'api-header-builder',
    generic: {
      a: 'https://api.example.com/items',
      b: 'Accept: application/json',
      c: '{"x":1}',
      mode: 'post',
    },
    path: '/api/api-header-builder/',
    fields: {
      url: 'https://api.example.com/items',
      headers: { Accept: 'application/json' },
      body: { x: 1 },
      method: 'POST',
    },
    check: (r) => {
      expect(r.request).toMatchObject({ method: 'POST', url: 'https://api.example.com/items' });
      expect(Object.keys(r.snippets as object).sort()).toEqual(['axios', 'curl', 'fetch', 'python']);
    },
  },
  {
    toolId: 'api-response-mocker',
    generic: {
      a: JSON.stringify({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }),
      b: 'GET /api/things/:id',
      c: '201',
      mode: 'all',
    },
    path: '/api/api-response-mocker/',
    fields: {
      response: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      route: 'GET /api/things/:id',
      status: 201,
    },
    check: (r) => {
      expect((r.response as { status: number }).status).toBe(201);
      expect(Object.keys(r.snippets as object).sort()).toEqual(['curl', 'express', 'fetch', 'msw', 'python']);
    },
  },
  {
    toolId: 'structured-output-validator',
    generic: { a: JSON.stringify(schema), b: '{"n":"one"}' },
    path: '/api/schema-validator/',
    fields: { schema, target: { n: 'one' } },
    check: (r) => {
      expect(r.valid).toBe(false);
      expect(r.errors).toEqual([expect.objectContaining({ path: '/n', keyword: 'type' })]);
    },
  },
  {
    toolId: 'structured-output-validator',
    generic: { a: JSON.stringify(extraRequired), mode: 'schema', options: { provider: 'openai-strict' } },
    path: '/api/schema-validator/',
    fields: { schema: extraRequired, mode: 'schema', provider: 'openai-strict' },
    check: (r) =>
      expect(r).toMatchObject({ valid: false, errors: [{ path: '/required/1', keyword: 'required' }] }),
  },
  {
    toolId: 'token-counter',
    generic: { a: 'hello world', b: 'gpt-4', c: '5', mode: 'tokens' },
    path: '/api/token-counter/',
    fields: { text: 'hello world', model: 'gpt-4', limit: 5, mode: 'tokens' },
    check: (r) =>
      expect(r).toMatchObject({
        tokens: 2,
        encoding: 'cl100k_base',
        withinLimit: true,
        pieces: ['hello', ' world'],
      }),
  },
  {
    toolId: 'schema-generator',
    generic: { a: '{"id":1,"email":"a@b.co"}', b: 'User', mode: 'strict' },
    path: '/api/schema-generator/',
    fields: { sample: { id: 1, email: 'a@b.co' }, title: 'User', mode: 'strict' },
    check: (r) =>
      expect(r.schema).toMatchObject({
        title: 'User',
        type: 'object',
        additionalProperties: false,
        required: ['id', 'email'],
      }),
  },
  {
    toolId: 'format-detective',
    generic: { a: 'a: 1\nb: [x, y]\n', b: 'json', mode: 'convert' },
    path: '/api/format-detective/convert/',
    fields: { input: 'a: 1\nb: [x, y]\n', to: 'json' },
    check: (r) => {
      expect(r).toMatchObject({ from: 'yaml', to: 'json' });
      expect(JSON.parse(r.output as string)).toEqual({ a: 1, b: ['x', 'y'] });
    },
  },
  {
    toolId: 'format-detective',
    generic: { a: 'id,name\n1,Ada\n', mode: 'detect' },
    path: '/api/format-detective/detect/',
    fields: { input: 'id,name\n1,Ada\n' },
    check: (r) => expect(r.format).toBe('csv'),
  },
  {
    toolId: 'structured-diff',
    generic: { a: '{"a":1,"b":[1,2]}', b: 'a: 2\nb: [1]\n', mode: 'patch' },
    path: '/api/structured-diff/',
    fields: { left: '{"a":1,"b":[1,2]}', right: 'a: 2\nb: [1]\n', mode: 'patch' },
    check: (r) => expect(r).toMatchObject({ equal: false, stats: { added: 0, removed: 1, changed: 1 } }),
  },
  {
    toolId: 'cron-expression',
    generic: { a: '0 9 1 1 *', b: 'Europe/Paris', c: '2', mode: 'parse' },
    path: '/api/cron-expression/parse/',
    fields: { expression: '0 9 1 1 *', timezone: 'Europe/Paris', count: 2 },
    volatile: ['from'],
    check: (r) => {
      expect(r.valid).toBe(true);
      expect(r.nextRuns as string[]).toHaveLength(2);
      expect((r.nextRuns as string[])[0]).toMatch(/-01-01T09:00:00\+01:00$/);
    },
  },
  {
    // 7 is Sunday as 0 is (Vixie cron): Sunday named both ways is valid and means it once.
    toolId: 'cron-expression',
    generic: { a: '0 9 * * 0,7', mode: 'parse' },
    path: '/api/cron-expression/parse/',
    fields: { expression: '0 9 * * 0,7' },
    volatile: ['from', 'nextRuns'],
    check: (r) => {
      expect(r).toMatchObject({ valid: true, description: 'At 09:00 AM, only on Sunday' });
      for (const run of r.nextRuns as string[]) expect(new Date(run).getUTCDay()).toBe(0);
    },
  },
  {
    toolId: 'cron-expression',
    generic: { a: '{"minute":"30","hour":"*/6"}', mode: 'build' },
    path: '/api/cron-expression/build/',
    fields: { fields: { minute: '30', hour: '*/6' } },
    volatile: ['from', 'nextRuns'],
    check: (r) => expect(r.expression).toBe('30 */6 * * *'),
  },
  {
    toolId: 'cron-expression',
    generic: { a: '0 15 10 ? * 6L 2025', b: 'unix', mode: 'convert' },
    path: '/api/cron-expression/convert/',
    fields: { expression: '0 15 10 ? * 6L 2025', to: 'unix' },
    volatile: ['from', 'nextRuns'],
    check: (r) => {
      expect(r).toMatchObject({ expression: '15 10 * * 5L', dialect: 'unix', sourceDialect: 'quartz' });
      expect(r.warnings as string[]).toHaveLength(2);
    },
  },
  {
    toolId: 'regex-tester',
    generic: { a: '(?<y>\\d{4})-(\\d\\d)', b: 'on 2024-05 and 2025-06', c: 'g', mode: 'match' },
    path: '/api/regex-tester/',
    fields: { pattern: '(?<y>\\d{4})-(\\d\\d)', text: 'on 2024-05 and 2025-06', flags: 'g', mode: 'match' },
    check: (r) => {
      expect(r.count).toBe(2);
      expect((r.matches as { groups: unknown }[])[1]?.groups).toEqual({ y: '2025' });
    },
  },
  {
    toolId: 'regex-tester',
    generic: { a: '/(\\w+)@/g', b: 'ann@x bob@y', c: '<$1>', mode: 'replace' },
    path: '/api/regex-tester/',
    fields: { pattern: '/(\\w+)@/g', text: 'ann@x bob@y', replacement: '<$1>', mode: 'replace' },
    check: (r) => expect(r.output).toBe('<ann>x <bob>y'),
  },
  {
    toolId: 'qr-code',
    generic: { a: 'https://example.com', b: 'Q', c: '128', mode: 'svg' },
    path: '/api/qr-code/',
    fields: { data: 'https://example.com', errorCorrection: 'Q', size: 128, format: 'svg' },
    check: (r) => {
      expect(r).toMatchObject({ format: 'svg', version: expect.any(Number) });
      expect(r.data).toMatch(/^<svg[^>]+width="128"/);
    },
  },
  {
    toolId: 'color-palette',
    generic: { a: '#ff0000', b: '3', mode: 'complementary' },
    path: '/api/color-palette/generate/',
    fields: { color: '#ff0000', count: 3, scheme: 'complementary' },
    check: (r) => expect((r.colors as unknown[]).length).toBeGreaterThanOrEqual(2),
  },
  {
    toolId: 'color-palette',
    generic: { a: 'rebeccapurple', b: 'hsl', mode: 'convert' },
    path: '/api/color-palette/convert/',
    fields: { color: 'rebeccapurple', format: 'hsl' },
    check: (r) => expect(r.hex).toBe('#663399'),
  },
  {
    toolId: 'html-markdown',
    generic: { a: '# Hi\n\n<img src=x onerror=alert(1)> [x](javascript:alert(1))', mode: 'markdown-to-html' },
    path: '/api/html-markdown/',
    fields: {
      input: '# Hi\n\n<img src=x onerror=alert(1)> [x](javascript:alert(1))',
      mode: 'markdown-to-html',
    },
    check: (r) => {
      expect(r.output).toContain('<h1');
      expect(r.output).not.toMatch(/onerror|javascript:/i);
    },
  },
];

describe('both surfaces give the same result', () => {
  it.each(cases.map((c) => [`${c.toolId} ${c.path}`, c] as const))('%s', async (_name, c) => {
    const generic = await app.inject({
      method: 'POST',
      url: '/api/tools/run/',
      payload: { toolId: c.toolId, input: c.generic },
    });
    const post = await app.inject({ method: 'POST', url: c.path, payload: c.fields });
    expect(generic.statusCode, generic.body).toBe(200);
    expect(post.statusCode, post.body).toBe(200);
    expect(stable(post.json().result, c.volatile)).toEqual(stable(generic.json().result, c.volatile));
    c.check(generic.json().result);
    const endpoint = app.tools.get(c.toolId)!.def.endpoints.find((e) => e.path === c.path)!;
    if (endpoint.methods.includes('GET')) {
      const query = new URLSearchParams(
        Object.entries(c.fields).map(([k, v]): [string, string] => [
          k,
          typeof v === 'string' ? v : JSON.stringify(v),
        ]),
      );
      const get = await app.inject({ url: `${c.path}?${query}` });
      expect(get.statusCode, get.body).toBe(200);
      expect(stable(get.json().result, c.volatile)).toEqual(stable(generic.json().result, c.volatile));
    }
  });
});

/** One refusal, asked on both surfaces: the generic runtime and the dedicated endpoint. */
interface BadCase {
  toolId: string;
  /** What is wrong with the input (the test's name). */
  what: string;
  /** The input on the generic runtime (`a`, `b`, `c`, `mode`). */
  generic: Record<string, string>;
  /** The dedicated endpoint and the same input as its named fields. */
  path: string;
  fields: Record<string, unknown>;
  code: string;
  /** HTTP status of the answer; 400 unless given. */
  status?: number;
}

const bad: BadCase[] = [
  {
    toolId: 'api-header-builder',
    what: 'a URL that is not absolute',
    generic: { a: 'not a url' },
    path: '/api/api-header-builder/',
    fields: { url: 'not a url' },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'api-header-builder',
    what: 'CR LF in a header value',
    generic: { a: 'https://x.io', b: JSON.stringify({ 'X-A': '1\r\nX-B: 2' }) },
    path: '/api/api-header-builder/',
    fields: { url: 'https://x.io', headers: { 'X-A': '1\r\nX-B: 2' } },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'api-header-builder',
    what: 'an unknown method',
    generic: { a: 'https://x.io', mode: 'TRACE' },
    path: '/api/api-header-builder/',
    fields: { url: 'https://x.io', method: 'TRACE' },
    code: 'UNSUPPORTED_OPTION',
  },
  {
    toolId: 'api-response-mocker',
    what: 'an unknown target',
    generic: { a: '{"a":1}', mode: 'cobol' },
    path: '/api/api-response-mocker/',
    fields: { response: { a: 1 }, target: 'cobol' },
    code: 'UNSUPPORTED_OPTION',
  },
  {
    toolId: 'structured-output-validator',
    what: 'a schema that is not JSON',
    generic: { a: '{"type":', b: '1' },
    path: '/api/schema-validator/',
    fields: { schema: '{"type":', target: 1 },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'token-counter',
    what: 'an unknown model',
    generic: { a: 'x', b: 'gpt-99-ultra' },
    path: '/api/token-counter/',
    fields: { text: 'x', model: 'gpt-99-ultra' },
    code: 'UNSUPPORTED_OPTION',
  },
  {
    toolId: 'schema-generator',
    what: 'a sample that is not JSON',
    generic: { a: '{bad json' },
    path: '/api/schema-generator/',
    fields: { sample: '{bad json' },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'format-detective',
    what: 'an unknown target format',
    generic: { a: 'a: 1', b: 'docx', mode: 'convert' },
    path: '/api/format-detective/convert/',
    fields: { input: 'a: 1', to: 'docx' },
    code: 'UNSUPPORTED_OPTION',
  },
  {
    toolId: 'format-detective',
    what: 'nested data for CSV',
    generic: { a: '{"a":{"b":1}}', b: 'csv', mode: 'convert' },
    path: '/api/format-detective/convert/',
    fields: { input: '{"a":{"b":1}}', to: 'csv' },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'cron-expression',
    what: 'an unknown target dialect',
    generic: { a: '* * * * *', b: 'cobol', mode: 'convert' },
    path: '/api/cron-expression/convert/',
    fields: { expression: '* * * * *', to: 'cobol' },
    code: 'UNSUPPORTED_OPTION',
  },
  {
    toolId: 'cron-expression',
    what: 'a conversion with no faithful result',
    generic: { a: 'rate(7 minutes)', b: 'unix', mode: 'convert' },
    path: '/api/cron-expression/convert/',
    fields: { expression: 'rate(7 minutes)', to: 'unix' },
    code: 'UNSUPPORTED_OPTION',
  },
  {
    toolId: 'cron-expression',
    what: 'an unknown time zone',
    generic: { a: '* * *', b: 'Mars/Olympus' },
    path: '/api/cron-expression/parse/',
    fields: { expression: '* * *', timezone: 'Mars/Olympus' },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'regex-tester',
    what: 'an unclosed group',
    generic: { a: '(unclosed', b: 'x' },
    path: '/api/regex-tester/',
    fields: { pattern: '(unclosed', text: 'x' },
    code: 'INVALID_INPUT',
  },
  {
    // The analyser reads bounds up to 2^31-1; past it the refusal is the tool's, not recheck's Java text.
    toolId: 'regex-tester',
    what: 'a quantifier bound the analyser cannot read',
    generic: { a: 'a{0,4294967295}', mode: 'analyze' },
    path: '/api/regex-tester/analyze/',
    fields: { pattern: 'a{0,4294967295}' },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'regex-tester',
    what: 'an unknown flag',
    generic: { a: 'x', b: 'x', c: 'gq' },
    path: '/api/regex-tester/',
    fields: { pattern: 'x', text: 'x', flags: 'gq' },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'qr-code',
    what: 'an unknown error-correction level',
    generic: { a: 'x', b: 'Z' },
    path: '/api/qr-code/',
    fields: { data: 'x', errorCorrection: 'Z' },
    code: 'UNSUPPORTED_OPTION',
  },
  {
    toolId: 'qr-code',
    what: 'a size below the minimum',
    generic: { a: 'x', c: '10' },
    path: '/api/qr-code/',
    fields: { data: 'x', size: 10 },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'color-palette',
    what: 'a colour that is not one',
    generic: { a: 'not-a-colour', mode: 'tints' },
    path: '/api/color-palette/generate/',
    fields: { color: 'not-a-colour', scheme: 'tints' },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'color-palette',
    what: 'a count above the maximum',
    generic: { a: 'red', b: '99', mode: 'tints' },
    path: '/api/color-palette/generate/',
    fields: { color: 'red', count: 99, scheme: 'tints' },
    code: 'INVALID_INPUT',
  },
  {
    toolId: 'color-palette',
    what: 'a format in another case (the enum is exact)',
    generic: { a: 'red', b: 'OKLCH', mode: 'convert' },
    path: '/api/color-palette/convert/',
    fields: { color: 'red', format: 'OKLCH' },
    code: 'UNSUPPORTED_OPTION',
  },
  {
    toolId: 'html-markdown',
    what: 'an unknown mode',
    generic: { a: 'x', mode: 'rtf' },
    path: '/api/html-markdown/',
    fields: { input: 'x', mode: 'rtf' },
    code: 'UNSUPPORTED_OPTION',
  },
  {
    toolId: 'qr-code',
    what: 'input over the size cap',
    generic: { a: 'x'.repeat(5000) },
    path: '/api/qr-code/',
    fields: { data: 'x'.repeat(5000) },
    code: 'INPUT_TOO_LARGE',
    status: 413,
  },
];

describe('bad input gets the right code on both surfaces', () => {
  it.each(bad)('$toolId, $what → $code', async ({ toolId, generic, path, fields, code, status = 400 }) => {
    for (const res of [
      await app.inject({ method: 'POST', url: '/api/tools/run/', payload: { toolId, input: generic } }),
      await app.inject({ method: 'POST', url: path, payload: fields }),
    ]) {
      expect(res.statusCode, res.body).toBe(status);
      expect(errorBody(res).errorCode).toBe(code);
    }
  });
});

describe('an endpoint whose path names the mode', () => {
  it.each([
    [
      '/api/color-palette/convert/',
      { color: 'red', format: 'hex', scheme: 'analogous' },
      'scheme',
      'convert',
    ],
    ['/api/structured-diff/apply/', { document: '{}', patch: '[]', mode: 'summary' }, 'mode', 'apply'],
  ])(
    '%s refuses the mode field by name instead of listing it as allowed',
    async (url, payload, field, mode) => {
      const res = await app.inject({ method: 'POST', url, payload });
      expect(res.statusCode, res.body).toBe(400);
      const body = errorBody(res);
      expect(body.errorCode).toBe('INVALID_INPUT');
      expect(body.error).toBe(
        `'${field}' is not taken here: ${url} always runs mode '${mode}'; leave ${field} out`,
      );
    },
  );
});
