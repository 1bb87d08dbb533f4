import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExamples } from '../src/docs/examples.js';
import { type RegisteredTool, scanTools } from '../src/registry.js';
import type { JsonSchema, ToolDefinition } from '../src/shared/tool-def.js';
import { ROUTE_METHODS } from '../tools/api-response-mocker/route.js';
import { FIELD_NAMES } from '../tools/cron-expression/cron-fields.js';
import { MAX_MATCHES, MAX_PARTS } from '../tools/regex-tester/matches.js';
import { MAX_CHANGES } from '../tools/structured-diff/run.js';
import { MAX_ERRORS } from '../tools/structured-output-validator/schema-compile.js';
import { ENCODINGS } from '../tools/token-counter/encoding-names.js';
import { buildTestApp, policyFile, type TestApp } from './helpers.js';

/**
 * Every tool's `output` (its MCP outputSchema) against real results: the examples and a
 * table of cases covering every mode, each run through the HTTP API. A result is checked
 * with draft-07 ajv (the dialect the schemas are written in) and with ajv's 2020-12 class,
 * which MCP clients use for a schema without `$schema`; both with ajv-formats, as they do.
 * The schemas must also have teeth: every declared field is seen in some result, and a
 * result with a required field dropped or an unknown field added is refused.
 */

// ajv-formats is CommonJS with a default export; under NodeNext the callable is `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv | Ajv2020) => unknown;
const options = { strict: false, allErrors: true } as const;
const draft07 = new Ajv(options);
const draft2020 = new Ajv2020(options);
addFormats(draft07);
addFormats(draft2020);

const tools = [...(await scanTools()).values()];

type Input = Record<string, unknown>;
/** A run of one mode with named fields, on the tool's dedicated endpoint. */
type Case = [mode: string, input: Input];

const url = 'https://api.example.com/v1/items?page=2#top';
const userSchema = {
  type: 'object',
  required: ['id', 'email'],
  properties: { id: { type: 'integer', minimum: 1 }, email: { type: 'string', format: 'email' } },
};
const from = '2025-03-01T12:00:00Z';

/** Small valid inputs: every mode at least once, and the inputs that bring out each optional field. */
const CASES: Record<string, Case[]> = {
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
    // Dialects: Quartz with a year, EventBridge cron in a zone and rate(), a wrong rate(), conversions.
    ['parse', { expression: '0 15 10 ? * 6L 2025-2030', count: 2, from }],
    ['parse', { expression: 'cron(0 10 * * ? *)', timezone: 'Europe/Paris', count: 2, from }],
    ['parse', { expression: 'rate(5 minutes)', count: 2, from }],
    ['parse', { expression: 'rate(5 weeks)' }],
    ['convert', { expression: '0 15 10 ? * 6L 2025', to: 'unix', count: 2, from }],
    ['convert', { expression: '*/15 9-17 * * 1-5', to: 'eventbridge', count: 1, from }],
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

let app: TestApp;
beforeAll(async () => {
  const file = await policyFile({
    tools: Object.fromEntries(tools.map(({ def }) => [def.id, { limit: 1_000_000, burst: 1000 }])),
  });
  app = await buildTestApp({ POLICY_FILE: file }, true);
});
afterAll(async () => {
  await app?.close();
});

const object = (value: unknown): Record<string, unknown> => value as Record<string, unknown>;
/** A part of a schema, by property names. */
const at = (schema: unknown, ...keys: string[]): unknown =>
  keys.reduce((node, key) => object(node)[key], schema);

/**
 * The ready request bodies of POST /api/tools/run/ among a tool's examples (every tool has
 * them: readExamples throws where one is missing): basic.json, and edgeCase.json's request.
 */
function exampleRequests(tool: RegisteredTool): [name: string, body: Input][] {
  const { basic, edgeCase } = readExamples(tool.docsDir);
  return [
    ['basic.json', basic],
    ['edgeCase.json', edgeCase.request],
  ];
}

/** The dedicated endpoint that runs `mode`, and the body that asks for it there. */
function dedicatedRequest(def: ToolDefinition, mode: string, input: Input): { url: string; body: Input } {
  const endpoint = def.endpoints.find(
    (ep) =>
      ep.methods.includes('POST') && (ep.mode ? ep.mode === mode : (ep.modes ?? def.modes).includes(mode)),
  );
  if (!endpoint) throw new Error(`${def.id}: no POST endpoint runs mode ${mode}`);
  const body = endpoint.mode ? input : { ...input, [def.modeField!]: mode };
  return { url: endpoint.path, body };
}

interface Checked {
  validators: ValidateFunction[];
  /** Top-level fields seen in real results. */
  seen: Set<string>;
  /** One real result, to break on purpose. */
  sample?: Record<string, unknown>;
}
const checked = new Map<string, Checked>();

function validatorsOf(def: ToolDefinition): Checked {
  let entry = checked.get(def.id);
  if (!entry) {
    const schema = def.output as JsonSchema;
    entry = { validators: [draft07.compile(schema), draft2020.compile(schema)], seen: new Set() };
    checked.set(def.id, entry);
  }
  return entry;
}

/** Every validator's problems with `result` (empty: it fits). */
function problems(def: ToolDefinition, result: unknown): string[] {
  return validatorsOf(def).validators.flatMap((validate) =>
    validate(result) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`),
  );
}

/** Asserts that a real result fits the tool's output schema, and records its fields. */
function expectFits(def: ToolDefinition, result: unknown, label: string): void {
  expect(problems(def, result), `${label}: ${JSON.stringify(result).slice(0, 600)}`).toEqual([]);
  const entry = validatorsOf(def);
  for (const key of Object.keys(object(result))) entry.seen.add(key);
  entry.sample ??= object(result);
}

async function post(url: string, body: Input) {
  return app.inject({ method: 'POST', url, payload: body });
}

/**
 * Fields a result carries only when the run meets its time budget, which no case can bring
 * about on every machine (a fast one finishes the search): their own tests force it
 * (cron-expression's `note`: tools/cron-expression/schedule.test.ts).
 */
const SITUATIONAL_FIELDS: Record<string, string[]> = { 'cron-expression': ['note'] };

describe('the case table', () => {
  it('names only registered tools, and covers every mode of each', () => {
    const ids = tools.map(({ def }) => def.id);
    for (const id of Object.keys(CASES)) expect(ids).toContain(id);
    for (const { def } of tools) {
      const cases = CASES[def.id];
      if (!cases) continue;
      expect(new Set(cases.map(([mode]) => mode)), def.id).toEqual(new Set(def.modes));
    }
  });
});

describe('enums and bounds agree with the code', () => {
  const output = (id: string) => tools.find(({ def }) => def.id === id)!.def.output;

  it('lists the same names as the implementations', () => {
    expect(at(output('token-counter'), 'properties', 'encoding', 'enum')).toEqual([...ENCODINGS]);
    expect(at(output('cron-expression'), 'properties', 'field', 'enum')).toEqual([...FIELD_NAMES, null]);
    expect(Object.keys(object(at(output('cron-expression'), 'properties', 'fields', 'properties')))).toEqual([
      ...FIELD_NAMES,
    ]);
    expect(at(output('api-response-mocker'), 'properties', 'route', 'properties', 'method', 'enum')).toEqual([
      ...ROUTE_METHODS,
    ]);
  });

  it('caps lists where the implementations cap them', () => {
    expect(at(output('regex-tester'), 'properties', 'matches', 'maxItems')).toBe(MAX_MATCHES);
    expect(at(output('regex-tester'), 'properties', 'parts', 'maxItems')).toBe(MAX_PARTS);
    expect(at(output('structured-diff'), 'properties', 'changes', 'maxItems')).toBe(MAX_CHANGES);
    expect(at(output('structured-output-validator'), 'properties', 'errors', 'maxItems')).toBe(MAX_ERRORS);
  });
});

describe.each(tools.map((t) => [t.def.id, t] as const))('%s output', (toolId, tool) => {
  const { def } = tool;
  const cases = CASES[toolId];
  const requests = exampleRequests(tool);

  it('is an object schema that compiles in both dialects, with a description per field', () => {
    const output = def.output as JsonSchema;
    expect(output.type).toBe('object');
    // Strict schema mode refuses unknown keywords, so a misspelt keyword cannot pass silently.
    const strict = { strict: false, strictSchema: true } as const;
    expect(() => new Ajv(strict).compile(output)).not.toThrow();
    expect(() => new Ajv2020(strict).compile(output)).not.toThrow();
    validatorsOf(def);
    const properties = object(output.properties);
    expect(Object.keys(properties).length).toBeGreaterThan(0);
    for (const [name, schema] of Object.entries(properties)) {
      expect(typeof object(schema).description, `${toolId}.${name} has no description`).toBe('string');
    }
    for (const name of (output.required as string[] | undefined) ?? [])
      expect(properties).toHaveProperty(name);
  });

  it('fits the documented example output', () => {
    expectFits(def, readExamples(tool.docsDir).expectedOutput, 'expectedOutput.json');
  });

  it.each(requests)('fits the result of %s', async (name, body) => {
    const res = await post('/api/tools/run/', body);
    if (res.statusCode >= 200 && res.statusCode < 300) expectFits(def, res.json().result, name);
    else expect(res.json().ok, res.body).toBe(false);
  });

  if (cases) {
    it.each(cases.map(([mode, input], i) => [`${mode} #${i + 1}`, mode, input] as const))(
      'fits the result of %s',
      async (label, mode, input) => {
        const { url, body } = dedicatedRequest(def, mode, input);
        const res = await post(url, body);
        expect(res.statusCode, res.body).toBe(200);
        expectFits(def, res.json().result, label);
      },
    );

    it('declares no field that no result carries', () => {
      const declared = Object.keys(object((def.output as JsonSchema).properties));
      const seen = validatorsOf(def).seen;
      const situational = SITUATIONAL_FIELDS[toolId] ?? [];
      expect(declared.filter((name) => !seen.has(name) && !situational.includes(name))).toEqual([]);
    });
  } else {
    // A tool the table does not know yet (a new one): each mode with its basic example's input.
    const basic = requests[0]![1];
    it.each(def.modes)('fits the result of mode %s with the basic example input', async (mode) => {
      const res = await post('/api/tools/run/', { ...basic, input: { ...object(basic.input), mode } });
      if (res.statusCode >= 200 && res.statusCode < 300) expectFits(def, res.json().result, mode);
    });
  }

  it('refuses a result with a required field dropped or an unknown field added', () => {
    const sample = validatorsOf(def).sample;
    expect(sample, `${toolId}: no real result was checked`).toBeDefined();
    const output = def.output as JsonSchema;
    // The fields required of every result, and those of the anyOf branches (modes) this result is of.
    const branches = ((output.anyOf as { required?: string[] }[] | undefined) ?? [])
      .map((branch) => branch.required ?? [])
      .filter((names) => names.every((name) => name in sample!));
    const required = [...((output.required as string[] | undefined) ?? []), ...branches.flat()];
    expect(required.length, `${toolId}: nothing is required`).toBeGreaterThan(0);
    for (const name of required) {
      const { [name]: _dropped, ...rest } = sample!;
      expect(problems(def, rest), `${toolId} without ${name}`).not.toEqual([]);
    }
    if (output.additionalProperties === false) {
      expect(problems(def, { ...sample, unexpectedField: 1 })).not.toEqual([]);
    }
  });
});
