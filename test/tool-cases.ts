import type { ToolSpec } from '../src/shared/tool-def.js';

/**
 * Small valid runs of the tools, every mode at least once, with named fields on the tool's
 * dedicated endpoint: test/output-schemas.test.ts checks their results against each tool's
 * output schema, test/option-modes.test.ts the modes each option is declared for.
 */
type Input = Record<string, unknown>;

/** A run of one mode with named fields, on the tool's dedicated endpoint. */
export type Case = [mode: string, input: Input];

const url = 'https://api.example.com/v1/items?page=2#top';
const userSchema = {
  type: 'object',
  required: ['id', 'email'],
  properties: { id: { type: 'integer', minimum: 1 }, email: { type: 'string', format: 'email' } },
};
const from = '2025-03-01T12:00:00Z';

/** Small valid inputs: every mode at least once, and the inputs that bring out each optional field. */
export const CASES: Record<string, Case[]> = {
  'api-header-builder': [
    ['GET', { url, headers: 'Accept: application/json\nContent-Length: 12' }],
    ['POST', { url, headers: { 'X-Trace': 'abc' }, body: { name: 'Ada', tags: ['x'] } }],
    ['PUT', { url, body: 'plain text body' }],
    ['PATCH', { url, headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"a": null}' }],
    ['DELETE', { url: 'http://localhost:8080/items/1' }],
    ['HEAD', { url }],
    ['OPTIONS', { url, headers: '{"Origin": "https://app.example"}' }],
  ],
  'api-response-mocker': [
    ['all', { response: userSchema, route: 'POST /api/users', status: 201 }],
    ['fetch', { response: { ok: true } }],
    ['msw', { response: [1, 2], status: 204 }],
    [
      'express',
      {
        response: JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...userSchema }),
        route: '/api/users/:id',
      },
    ],
    ['curl', { response: 'null', route: 'DELETE /api/users/:id', status: 404 }],
    ['python', { response: '{"id": 12345678901234567890}', route: 'HEAD /api/ping' }],
  ],
  'color-palette': [
    ['convert', { color: 'rgb(255 0 0 / 50%)', format: 'hex' }],
    ['convert', { color: 'oklch(70% 0.4 150)', format: 'oklch' }],
    ['convert', { color: 'rebeccapurple', format: 'lab' }],
    ['convert', { color: '#0f0', format: 'rgb' }],
    ['convert', { color: 'lab(50 20 -30)', format: 'hsl' }],
    ['convert', { color: 'hwb(200 10% 20%)', format: 'hwb' }],
    ['convert', { color: 'color(display-p3 1 0 0)', format: 'lch' }],
    ['convert', { color: 'ff8800', format: 'oklab' }],
    ['analogous', { color: 'tomato', count: 5 }],
    ['complementary', { color: '#3b82f6', count: 2 }],
    ['triadic', { color: '#808080', count: 3 }],
    ['tetradic', { color: 'hsl(120 50% 50% / 0.5)', count: 4 }],
    ['split-complementary', { color: 'oklch(70% 0.4 150)', count: 7 }],
    ['monochromatic', { color: '#222', count: 6 }],
    ['shades', { color: 'white', count: 1 }],
    ['tints', { color: 'black', count: 20 }],
    ['triadic', { color: '#3b82f6', count: 3, export: 'all', prefix: 'brand' }],
    ['convert', { color: '#ff000080', format: 'hex', export: 'css,tokens' }],
  ],
  'cron-expression': [
    ['parse', { expression: '*/15 9-17 * * 1-5', timezone: 'Europe/Paris', count: 3, from }],
    ['parse', { expression: '@daily', count: 1, from }],
    ['parse', { expression: '0 */5 * * * *', count: 0 }],
    ['parse', { expression: '0 0 30 2 *' }],
    ['parse', { expression: 'a b' }],
    // Years past 9999 are written +YYYYYY, and a year-0 start goes before year 0: no date-time format.
    ['parse', { expression: '0 0 1 1 *', count: 2, from: '9999-06-01T00:00:00Z' }],
    ['parse', { expression: '0 0 1 1 *', count: 1, from: '0000-01-01T00:00:00+01:00' }],
    // The fifth Friday of February: the search budget runs out, so a note says why runs are missing.
    ['parse', { expression: '0 0 * 2 5#5', count: 50, from }],
    ['build', { fields: { hour: 9, dayOfWeek: [1, 5] }, count: 2, from }],
    ['build', { fields: '{"second": "30", "minute": "*/5"}', timezone: 'Asia/Kolkata', count: 1, from }],
    ['parse', { expression: '0 0 12 ? * MON-FRI', dialect: 'quartz', count: 1, from }],
    // Dialects: Quartz with a year, EventBridge cron in a zone and rate(), a wrong rate(), conversions.
    ['parse', { expression: '0 15 10 ? * 6L 2025-2030', count: 2, from }],
    ['parse', { expression: 'cron(0 10 * * ? *)', timezone: 'Europe/Paris', count: 2, from }],
    ['parse', { expression: 'rate(5 minutes)', count: 2, from }],
    ['parse', { expression: 'rate(5 weeks)' }],
    ['convert', { expression: '0 15 10 ? * 6L 2025', to: 'unix', count: 2, from }],
    ['convert', { expression: '*/15 9-17 * * 1-5', to: 'eventbridge', count: 1, from }],
    ['convert', { expression: '0 9 * * *', to: 'quartz', timezone: 'Asia/Tokyo', count: 1, from }],
    ['convert', { expression: '0 15 10 ? * 6L 2025', dialect: 'quartz', to: 'eventbridge', count: 1, from }],
  ],
  'format-detective': [
    ['detect', { input: 'name: hub\nports:\n  - 80\n  - 443\n' }],
    ['detect', { input: 'a: [unclosed' }],
    ['convert', { input: '{"a": 1, "b": [true, null]}', to: 'yaml', from: 'json' }],
    ['convert', { input: '[{"a": 1}, {"b": 2}]', to: 'csv' }],
    ['convert', { input: 'x = 1\n[s]\ny = true\n', to: 'ini' }],
  ],
  'html-markdown': [
    ['html-to-markdown', { input: '<h1>Hi</h1><p>a <em>b</em></p><ul><li>c</li></ul>' }],
    ['markdown-to-html', { input: '# Hi\n\n- [x] done\n\n<script>x()</script>' }],
    ['markdown-to-html', { input: '' }],
  ],
  'qr-code': [
    ['svg', { data: 'https://example.com/', errorCorrection: 'L' }],
    ['png', { data: 'hello', size: 64 }],
    ['utf8', { data: 'HELLO 123', errorCorrection: 'H' }],
  ],
  'regex-tester': [
    ['match', { pattern: '(?<year>\\d{4})-(\\d{2})(x)?', text: 'on 2025-03 and 2026-04', flags: 'gd' }],
    ['match', { pattern: 'o', text: 'foo' }],
    ['test', { pattern: '/B+/i', text: 'abbc' }],
    ['test', { pattern: 'z', text: 'abc' }],
    ['replace', { pattern: '/(\\w+)@(\\w+)/g', text: 'a@b and c@d', replacement: '$2 at $1' }],
    ['replace', { pattern: 'x', text: 'axbx' }],
    ['replace', { pattern: 'a', text: 'AaA', replacement: 'x', flags: 'gi' }],
    ['split', { pattern: '(,)|(;)', text: 'a,b;c' }],
    ['analyze', { pattern: '^(a|aa)+$' }],
    ['analyze', { pattern: 'a*b*c', flags: 'gd' }],
    ['analyze', { pattern: '^\\d+$' }],
    ['analyze', { pattern: '(?<=a+)b' }],
  ],
  'schema-generator': [
    ['draft-07', { sample: { id: 1, email: 'ada@example.com', at: '2025-01-01T00:00:00Z' }, title: 'User' }],
    ['strict', { sample: '[{"id": 1, "nick": "a"}, {"id": 2}]' }],
    ['merge', { sample: [{ a: 1 }, { a: 2, b: 'x' }] }],
  ],
  'structured-diff': [
    ['summary', { left: '{"a": 1}', right: 'a: 1\n' }],
    ['summary', { left: { 'a/b': 1, 'c~d': [1, 2] }, right: { 'a/b': 2, 'c~d': [1] } }],
    ['summary', { left: '{"n": 0.1234567890123456789}', right: '{"n": 1}' }],
    ['patch', { left: '{"keep": true, "old": 1}', right: '{"keep": true, "new": {"x": [1]}}' }],
    ['patch', { left: '1', right: '[1]' }],
    ['merge-patch', { left: '{"a": 1, "b": [1]}', right: '{"a": null, "b": [2]}' }],
    [
      'apply',
      { document: '{"a": 1}', patch: '[{"op": "add", "path": "/b", "value": 2}]', target: 'a: 1\nb: 3\n' },
    ],
    ['apply', { document: { a: 1 }, patch: { a: null, b: [1] } }],
    ['apply', { document: '[1]', patch: '[2, 3]', patchFormat: 'merge-patch' }],
  ],
  'structured-output-validator': [
    ['validate', { schema: userSchema, target: '{"id": 0, "email": "nope", "extra": 1}' }],
    ['validate', { schema: JSON.stringify(userSchema), target: { id: 1, email: 'a@example.com' } }],
    ['lenient', { schema: userSchema, target: 'Here:\n```json\n{"id": 2, "email": "b@example.com"}\n```' }],
    ['lenient', { schema: userSchema, target: 'no JSON in here at all' }],
    ['lenient', { schema: userSchema, target: { id: 3 } }],
    ['schema', { schema: { type: 'object', properties: { a: { type: 'strin' } } } }],
    [
      'schema',
      { schema: { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } } },
    ],
    ['schema', { schema: { name: 'lookup', input_schema: userSchema } }],
    // The provider option and mode fix (changes, fixed, provider, issue.provider).
    ['schema', { schema: { name: 'lookup', input_schema: userSchema }, provider: 'openai-strict' }],
    [
      'schema',
      { schema: { type: 'json_schema', json_schema: { name: 'u', schema: userSchema } }, provider: 'mcp' },
    ],
    ['fix', { schema: userSchema }],
    ['fix', { schema: userSchema, provider: 'openai-strict' }],
  ],
  'token-counter': [
    ['count', { text: 'Hello, world!', model: 'gpt-4o', limit: 2 }],
    ['count', { text: '', model: 'cl100k_base' }],
    ['tokens', { text: 'naïve 👋 tokens', model: 'gpt2', limit: 100 }],
    ['tokens', { text: 'plain', model: 'p50k_edit' }],
    ['count', { text: 'Hello', model: 'claude-sonnet-4-5', expectedOutputTokens: 10 }],
    ['count', { text: '', model: 'llama-3.1-8b', messages: [{ role: 'user', content: 'hi' }] }],
  ],
};

/** The dedicated endpoint that runs `mode`, and the body that asks for it there. */
export function dedicatedRequest(def: ToolSpec, mode: string, input: Input): { url: string; body: Input } {
  const endpoint = def.endpoints.find(
    (ep) =>
      ep.methods.includes('POST') && (ep.mode ? ep.mode === mode : (ep.modes ?? def.modes).includes(mode)),
  );
  if (!endpoint) throw new Error(`${def.id}: no POST endpoint runs mode ${mode}`);
  const body = endpoint.mode ? input : { ...input, [def.modeField!]: mode };
  return { url: endpoint.path, body };
}
