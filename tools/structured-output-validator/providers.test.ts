/**
 * The provider option of mode schema and mode fix, against independent references:
 * - openai-node's own strict transform (`toStrictJsonSchema`, openai@7 lib/transform) and its
 *   zod helper (`zodResponseFormat`): the fix must give what they give, and pass them;
 * - the providers' published example tools (provider-vectors.json), each valid under its provider;
 * - Ajv2020's 2020-12 meta-schema for MCP schemas.
 * The counts are in conformance.json (asserted below).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { zodResponseFormat } from 'openai/helpers/zod';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declaredCases, expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

const sov = toolRunner(tool, run);
const here = new URL('.', import.meta.url);
const vectors = JSON.parse(readFileSync(new URL('provider-vectors.json', here), 'utf8')) as {
  valid: { provider: string; name: string; doc: unknown }[];
  toFix: Record<string, unknown>;
};

interface Issue {
  path: string;
  keyword: string;
  message: string;
  provider?: string;
}
interface Result {
  valid: boolean;
  kind: string;
  errors: Issue[];
  errorCount: number;
  truncated: boolean;
  provider?: string;
  fixed?: Record<string, unknown>;
  changes?: { path: string; action: string; keyword: string; message: string }[];
  changeCount?: number;
}
const lint = async (schema: unknown, provider: string) =>
  (await sov({ schema, provider }, 'schema')) as Result;
const fix = async (schema: unknown) => (await sov({ schema }, 'fix')) as Result;
const where = (r: Result) => r.errors.map((e) => `${e.path} ${e.keyword}`);

/**
 * A schema in the reference's canonical forms: it writes a one-element type list as its type
 * and drops a null default. Strict mode needs neither (the lint accepts both), so fix leaves
 * them as written; the comparison with the reference puts them in its forms first.
 */
function canonical(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(canonical);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'type' && Array.isArray(v) && v.length === 1) out[k] = v[0];
    else if (k === 'default' && v === null) continue;
    else out[k] = ['enum', 'const', 'default', 'examples'].includes(k) ? v : canonical(v);
  }
  return out;
}

/** Plain schemas openai-node's toStrictJsonSchema accepts (every optional property already nullable). */
const REFERENCE_ACCEPTS: Record<string, unknown>[] = [
  { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
  { type: 'object', properties: { a: { type: 'string' }, b: { type: ['number', 'null'] } }, required: ['a'] },
  {
    type: 'object',
    properties: { o: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] } },
    required: ['o'],
  },
  {
    type: 'object',
    properties: { a: { type: ['string'] }, b: { type: 'string', default: null } },
    required: ['a', 'b'],
  },
  { type: 'object', properties: { a: { type: 'object', properties: {} } }, required: ['a'] },
  { type: 'object', allOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }] },
  {
    type: 'object',
    properties: { a: { $ref: '#/$defs/A' } },
    required: ['a'],
    $defs: { A: { type: 'object', properties: { n: { type: ['integer', 'null'] } } } },
  },
  {
    type: 'object',
    properties: {
      list: {
        type: 'array',
        items: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] },
      },
    },
    required: ['list'],
  },
  {
    type: 'object',
    properties: {
      u: {
        anyOf: [{ type: 'object', properties: { k: { type: 'string' } }, required: ['k'] }, { type: 'null' }],
      },
    },
  },
  {
    type: 'object',
    description: 'annotations stay',
    title: 'T',
    properties: { e: { type: 'string', enum: ['a', 'b'], description: 'd' }, c: { const: 'x' } },
    required: ['e', 'c'],
  },
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      d: { type: 'string', format: 'date-time', pattern: '^2' },
      n: { type: 'number', minimum: 0, maximum: 9 },
    },
    required: ['d', 'n'],
    definitions: { Unused: { type: 'object', properties: { q: { type: 'boolean' } }, required: ['q'] } },
  },
  {
    type: 'object',
    properties: { next: { anyOf: [{ $ref: '#' }, { type: 'null' }] }, value: { type: 'integer' } },
    required: ['value'],
  },
];

const ARRAY_WITHOUT_ITEMS = { type: 'object', properties: { a: { type: 'array' } }, required: ['a'] };
const UNFIXABLE = new Set<unknown>([ARRAY_WITHOUT_ITEMS]);

/** Schemas openai-node refuses (it cannot represent them); the lint must find a problem in each. */
const REFERENCE_REFUSES: Record<string, unknown>[] = [
  { type: 'object', properties: { a: { type: 'string' } } },
  { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: true },
  { type: 'object', properties: { a: { type: 'string', not: { const: 'x' } } }, required: ['a'] },
  { type: 'object', properties: { a: { oneOf: [{ type: 'string' }, { type: 'number' }] } }, required: ['a'] },
  {
    type: 'object',
    properties: { a: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
    required: ['a'],
  },
  {
    type: 'object',
    properties: { m: { type: 'object', patternProperties: { '^x': { type: 'string' } } } },
    required: ['m'],
  },
  ARRAY_WITHOUT_ITEMS,
  { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } }, required: ['t'] },
  { type: 'string' },
  {
    anyOf: [
      { type: 'object', properties: { a: { type: 'string' } } },
      { type: 'object', properties: { b: { type: 'string' } } },
    ],
  },
  { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], minProperties: 1 },
  {
    type: 'object',
    properties: { a: { type: 'object', properties: { b: { type: 'string' } } } },
    required: ['a'],
  },
];

/** zod shapes: `opt` makes a field optional (`.optional()`), or optional and nullable for the reference. */
type Wrap = (t: z.ZodType) => z.ZodType;
const ZOD_SHAPES: ((opt: Wrap) => z.ZodObject)[] = [
  (o) => z.object({ a: z.string(), b: o(z.number()) }),
  (o) => z.object({ e: o(z.enum(['F', 'C'])) }),
  (o) => z.object({ sub: o(z.object({ x: z.string(), y: o(z.boolean()) })) }),
  (o) => z.object({ list: o(z.array(z.string())) }),
  (o) => z.object({ u: o(z.union([z.string(), z.number()])) }),
  (o) => z.object({ lit: o(z.literal('a')) }),
  (o) => z.object({ n: o(z.number().int().min(1)) }),
  (o) => z.object({ items: z.array(z.object({ id: z.string(), note: o(z.string()) })) }),
  (o) => z.object({ s: o(z.string().regex(/^a+$/)), t: z.string().email() }),
  (o) => z.object({ deep: z.object({ deeper: z.object({ leaf: o(z.number()) }) }) }),
];

describe('conformance.json', () => {
  it('declares the counts of the suites below', () => {
    expect(declaredCases(import.meta.url, 'openai-node toStrictJsonSchema: fix equals')).toBe(
      REFERENCE_ACCEPTS.length,
    );
    expect(declaredCases(import.meta.url, 'openai-node toStrictJsonSchema: refused')).toBe(
      REFERENCE_REFUSES.length,
    );
    expect(declaredCases(import.meta.url, 'openai-node zodResponseFormat')).toBe(ZOD_SHAPES.length);
    expect(declaredCases(import.meta.url, 'Published provider examples')).toBe(vectors.valid.length);
    expect(declaredCases(import.meta.url, 'Ajv2020 meta-schema')).toBe(MCP_META_CASES.length);
  });
});

describe('fix against openai-node toStrictJsonSchema (openai@7)', () => {
  it.each(REFERENCE_ACCEPTS.map((s, i) => [i, s] as const))(
    'case %i: the same strict schema',
    async (_i, schema) => {
      const reference = toStrictJsonSchema(structuredClone(schema) as never);
      const ours = await fix(schema);
      expect(canonical(ours.fixed)).toEqual(reference);
      expect(ours).toMatchObject({ valid: true, errorCount: 0 });
      // and our lint accepts the reference's own output
      expect(where(await lint(reference, 'openai-strict'))).toEqual([]);
    },
  );

  it.each(REFERENCE_REFUSES.map((s, i) => [i, s] as const))(
    'case %i: refused by the reference, reported by the lint, fixed into what the reference accepts',
    async (_i, schema) => {
      expect(() => toStrictJsonSchema(structuredClone(schema) as never)).toThrow();
      const problems = await lint(schema, 'openai-strict');
      expect(problems.valid).toBe(false);
      expect(problems.errors.every((e) => e.provider === 'openai-strict')).toBe(true);
      const root = schema as { type?: unknown; anyOf?: unknown };
      if (root.type !== 'object' || root.anyOf) return; // a non-object root cannot be fixed
      const ours = await fix(schema);
      if (UNFIXABLE.has(schema)) {
        // Nothing to choose for the items of an array without items: the fix says it is not done.
        expect(ours).toMatchObject({ valid: false, errors: [{ keyword: 'items' }] });
        return;
      }
      expect(ours.valid).toBe(true);
      expect(ours.changeCount).toBeGreaterThan(0);
      // The reference takes our output as it is: it is strict already.
      expect(toStrictJsonSchema(structuredClone(ours.fixed) as never)).toEqual(ours.fixed);
    },
  );
});

describe('fix against openai-node zodResponseFormat (zod 4)', () => {
  it.each(ZOD_SHAPES.map((s, i) => [i, s] as const))(
    'shape %i: .optional() fixed = .optional().nullable()',
    async (_i, shape) => {
      const plain = z.toJSONSchema(
        shape((t) => t.optional()),
        { target: 'draft-7' },
      );
      const reference = zodResponseFormat(
        shape((t) => t.optional().nullable()),
        'x',
      ).json_schema.schema;
      const ours = await fix(plain);
      expect(ours.fixed).toEqual(reference);
      expect(ours.valid).toBe(true);
      expect(where(await lint(reference, 'openai-strict'))).toEqual([]);
    },
  );
});

describe('published provider examples', () => {
  it.each(vectors.valid.map((v) => [v.name, v] as const))('%s passes its provider lint', async (_n, v) => {
    const r = await lint(v.doc, v.provider);
    expect(where(r)).toEqual([]);
    expect(r).toMatchObject({ valid: true, provider: v.provider });
    if (v.provider === 'openai-strict') {
      // Already strict: fix changes nothing, and the reference agrees.
      const f = await fix(v.doc);
      expect(f.changes).toEqual([]);
      expect(f.fixed).toEqual(v.doc);
    }
  });

  it('recognises each shape', async () => {
    const kinds = await Promise.all(vectors.valid.map(async (v) => (await lint(v.doc, v.provider)).kind));
    expect(kinds).toEqual([
      'openai-function',
      'function-declaration',
      'openai-response-format',
      'openai-response-format',
      'json-schema',
      'json-schema',
      'anthropic-tool',
      'function-declaration',
      'function-declaration',
      'function-declaration',
      'function-declaration',
      'mcp-tool',
      'mcp-tool',
      'mcp-tool',
    ]);
  });

  it('fixes the non-strict published tools into schemas the reference accepts as they are', async () => {
    for (const doc of Object.values(vectors.toFix)) {
      const f = await fix(doc);
      expect(f.valid).toBe(true);
      const target = doc as Record<string, unknown>;
      const key =
        'input_schema' in target ? 'input_schema' : 'inputSchema' in target ? 'inputSchema' : 'parameters';
      const schema = (f.fixed as Record<string, unknown>)[key];
      expect(toStrictJsonSchema(structuredClone(schema) as never)).toEqual(schema);
    }
    const weather = await fix(vectors.toFix.anthropicGetWeather);
    expect(weather.changes?.map((c) => `${c.path} ${c.keyword}`)).toEqual([
      '/input_schema additionalProperties',
      '/input_schema/properties/unit required',
    ]);
    expect(
      (weather.fixed as { input_schema: { properties: { unit: unknown } } }).input_schema.properties.unit,
    ).toEqual({
      anyOf: [{ type: 'string', enum: ['celsius', 'fahrenheit'] }, { type: 'null' }],
      description: "The unit of temperature, either 'celsius' or 'fahrenheit'",
    });
  });
});

const MCP_META_CASES: unknown[] = [
  { type: 'object', properties: { a: { type: 'string' } } },
  { type: 'object', properties: { a: { type: 'strin' } } },
  { type: 'object', properties: { a: { minLength: -1 } } },
  { type: 'object', prefixItems: 3 },
  { type: 'object', $defs: { x: { type: 'integer' } }, properties: { b: { $ref: '#/$defs/x' } } },
  { type: 'object', dependentRequired: { a: 'b' } },
  { type: 'object', unevaluatedProperties: false, properties: { a: {} } },
  { type: 'object', required: ['a', 'a'] },
];

describe('MCP: schemas against the 2020-12 meta-schema (Ajv2020, fresh instance)', () => {
  const meta = new Ajv2020({ strict: false });
  it.each(MCP_META_CASES.map((s, i) => [i, s] as const))(
    'case %i agrees with Ajv2020.validateSchema',
    async (_i, s) => {
      const expected = meta.validateSchema(s as object) as boolean;
      const r = await lint({ name: 'tool', inputSchema: s, outputSchema: s }, 'mcp');
      expect(r.valid).toBe(expected);
      if (!expected) {
        expect(r.errors.some((e) => e.path.startsWith('/inputSchema'))).toBe(true);
        expect(r.errors.some((e) => e.path.startsWith('/outputSchema'))).toBe(true);
      }
    },
  );

  it('requires object input and output schemas, and reads the declared dialect', async () => {
    expect(
      where(await lint({ name: 't', inputSchema: { type: 'string' }, outputSchema: true }, 'mcp')),
    ).toEqual(['/inputSchema/type type', '/outputSchema type']);
    expect(where(await lint({ type: 'array' }, 'mcp'))).toEqual(['/type type']);
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: {} };
    expect((await lint({ name: 't', inputSchema: draft7 }, 'mcp')).valid).toBe(true);
    const draft4 = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' };
    expect(where(await lint({ name: 't', inputSchema: draft4 }, 'mcp'))).toEqual([
      '/inputSchema/$schema $schema',
    ]);
    expect(where(await lint({ name: 'bad name!', inputSchema: { type: 'object' } }, 'mcp'))).toEqual([
      '/name pattern',
    ]);
  });
});

describe('OpenAI strict lint', () => {
  it('reports each rule with a pointer into the document', async () => {
    const r = await lint(
      {
        type: 'function',
        function: {
          name: 'f',
          parameters: {
            type: 'object',
            properties: {
              a: { type: 'string', format: 'uri' },
              b: { allOf: [{ type: 'string' }] },
              c: {},
            },
            required: ['a', 'b'],
          },
        },
      },
      'openai-strict',
    );
    expect(where(r)).toEqual([
      '/function/parameters additionalProperties',
      '/function/parameters/properties/c required',
      '/function/parameters/properties/a/format format',
      '/function/parameters/properties/b/allOf allOf',
      '/function/parameters/properties/b type',
      '/function/parameters/properties/c type',
      '/function/strict strict',
    ]);
  });

  it('checks the documented limits', async () => {
    const props = (n: number, prefix: string) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { type: 'string' }]));
    const wide = (n: number) => ({
      type: 'object',
      properties: props(n, 'p'),
      required: Object.keys(props(n, 'p')),
      additionalProperties: false,
    });
    expect((await lint(wide(5000), 'openai-strict')).valid).toBe(true);
    expect(where(await lint(wide(5001), 'openai-strict'))).toEqual([' limit']);
    let deep: Record<string, unknown> = {
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    };
    for (let i = 0; i < 10; i++) {
      deep = { type: 'object', properties: { n: deep }, required: ['n'], additionalProperties: false };
    }
    // 11 object levels: the innermost is one too many.
    const r = await lint(deep, 'openai-strict');
    expect(r.errors.map((e) => e.keyword)).toEqual(['limit']);
    expect(r.errors[0]?.path).toBe(`${'/properties/n'.repeat(10)}`);
    const enumOf = (n: number, len: number) => ({
      type: 'object',
      properties: {
        e: { type: 'string', enum: Array.from({ length: n }, (_, i) => String(i).padStart(len, 'x')) },
      },
      required: ['e'],
      additionalProperties: false,
    });
    expect((await lint(enumOf(1000, 3), 'openai-strict')).valid).toBe(true);
    expect(where(await lint(enumOf(1001, 4), 'openai-strict'))).toEqual([' limit']);
    expect(where(await lint(enumOf(251, 60), 'openai-strict'))).toEqual(['/properties/e/enum limit']);
  });
});

describe('Gemini and Anthropic lint', () => {
  it('Gemini: unknown keywords, type lists, bad enums, undeclared required, names', async () => {
    const r = await lint(
      {
        name: '1st',
        parameters: {
          type: 'object',
          properties: {
            'my-loc': { type: ['string', 'null'] },
            u: { type: 'STRING', enum: ['a', 1] },
            r: { $ref: '#/x' },
          },
          required: ['x'],
          additionalProperties: false,
        },
      },
      'gemini',
    );
    expect(where(r)).toEqual([
      '/name pattern',
      '/parameters/properties/my-loc propertyName',
      '/parameters/additionalProperties additionalProperties',
      '/parameters/required/0 required',
      '/parameters/properties/my-loc/type type',
      '/parameters/properties/u/enum enum',
      '/parameters/properties/r/$ref $ref',
    ]);
    const both = { name: 'f', parametersJsonSchema: { type: 'object' }, parameters: { type: 'object' } };
    expect(where(await lint(both, 'gemini'))).toEqual(['/parametersJsonSchema parametersJsonSchema']);
    const json = {
      name: 'f',
      parametersJsonSchema: { type: 'object', additionalProperties: false, $defs: {} },
    };
    expect(await lint(json, 'gemini')).toMatchObject({ valid: true, kind: 'function-declaration' });
  });

  it('Anthropic: the strict subset only with strict: true', async () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 0 },
        t: { $ref: '#/$defs/T' },
        l: { type: 'array', minItems: 2 },
      },
      $defs: { T: { type: 'object', properties: { c: { $ref: '#/$defs/T' } }, additionalProperties: false } },
    };
    expect((await lint({ name: 'get_weather', input_schema: schema }, 'anthropic')).valid).toBe(true);
    expect(
      where(await lint({ name: 'get_weather', input_schema: schema, strict: true }, 'anthropic')),
    ).toEqual([
      '/input_schema additionalProperties',
      '/input_schema/properties/n/minimum minimum',
      '/input_schema/properties/l/minItems minItems',
      '/input_schema/$defs/T/properties/c/$ref $ref',
    ]);
    expect(where(await lint({ name: 'a.b', input_schema: { type: 'object' } }, 'anthropic'))).toEqual([
      '/name pattern',
    ]);
  });
});

describe('bad input', () => {
  it('refuses an unknown provider, a provider outside schema/fix, fix for another provider', async () => {
    await expectToolError(
      sov({ schema: {}, provider: 'cohere' }, 'schema'),
      'UNSUPPORTED_OPTION',
      /provider/,
    );
    await expectToolError(
      sov({ schema: {}, target: {}, provider: 'gemini' }, 'validate'),
      'UNSUPPORTED_OPTION',
      /provider/,
    );
    await expectToolError(
      sov({ schema: { type: 'object' }, provider: 'mcp' }, 'fix'),
      'UNSUPPORTED_OPTION',
      /openai-strict/,
    );
  });

  it('fix: a non-object schema is a clear INVALID_INPUT; an invalid schema is reported, not rewritten', async () => {
    await expectToolError(fix('[1, 2]'), 'INVALID_INPUT', /must be a JSON Schema object/);
    await expectToolError(fix({ name: 'f', input_schema: 'x' }), 'INVALID_INPUT', /input_schema/);
    await expectToolError(fix('{"type": '), 'INVALID_INPUT', /not valid JSON/);
    const bad = await fix({ type: 'object', properties: { a: { type: 'strin' } } });
    expect(bad).toMatchObject({ valid: false, changes: [], changeCount: 0 });
    expect(bad.fixed).toBeUndefined();
  });

  it('a document that is not a schema is a verdict under every provider', async () => {
    for (const provider of ['openai-strict', 'gemini', 'anthropic', 'mcp']) {
      for (const doc of ['[1]', 'null', '42', '"text"', true]) {
        const r = await lint(doc, provider);
        expect(r.valid).toBe(false);
        expect(r.errors.length).toBeGreaterThan(0);
      }
    }
  });

  it('bounds the problem list and every message; deep documents are refused as before', async () => {
    const long = 'k'.repeat(5000);
    const props = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`${long}${i}`, { type: 'string', not: {} }]),
    );
    for (const provider of ['openai-strict', 'gemini', 'anthropic', 'mcp']) {
      const r = await lint({ type: 'object', properties: props, strict: true }, provider);
      expect(r.errors.length).toBeLessThanOrEqual(100);
      for (const e of r.errors) {
        expect(e.message.length).toBeLessThanOrEqual(300);
        expect(e.provider).toBe(provider);
      }
    }
    const r = await lint({ type: 'object', properties: props }, 'openai-strict');
    expect(r).toMatchObject({ truncated: true });
    expect(r.errorCount).toBeGreaterThan(100);
    const f = await fix({ type: 'object', properties: props });
    expect(f.changes?.length).toBe(100);
    expect(f.changeCount).toBe(601); // 300 × (not removed, made required) + additionalProperties
    let deep: unknown = { type: 'object' };
    for (let i = 0; i < 200; i++) deep = { type: 'object', properties: { a: deep } };
    await expectToolError(lint(deep, 'openai-strict'), 'INVALID_INPUT', /nested too deeply/);
    await expectToolError(fix(deep), 'INVALID_INPUT', /nested too deeply/);
  });
});
