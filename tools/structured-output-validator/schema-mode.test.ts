import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

const sov = toolRunner(tool, run);

type Check = {
  valid: boolean;
  kind: string;
  name?: string;
  errors: { path: string; keyword: string; message: string; params?: Record<string, unknown> }[];
  errorCount: number;
};
const check = async (schema: unknown) => (await sov({ schema }, 'schema')) as Check;
const paths = (c: Check) => c.errors.map((e) => `${e.path} ${e.keyword}`);

const PARAMS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('schema mode: JSON Schema', () => {
  it('accepts a valid draft-07 schema (text or value) and ignores target', async () => {
    const ok = { valid: true, kind: 'json-schema', errors: [], errorCount: 0, truncated: false };
    expect(await check(JSON.stringify(PARAMS))).toEqual(ok);
    expect(await sov({ schema: PARAMS, target: 'not json at all' }, 'schema')).toEqual(ok);
    expect(await check(false)).toEqual(ok);
  });

  it('reports meta-schema errors with paths into the schema', async () => {
    const c = await check({ properties: { a: { type: 'strin' }, b: { minLength: -1 } }, required: 'a' });
    expect(c.valid).toBe(false);
    expect(paths(c)).toEqual(
      expect.arrayContaining([
        '/properties/a/type enum',
        '/properties/b/minLength minimum',
        '/required type',
      ]),
    );
  });

  it('finds regexes that do not compile with the u flag, in pattern and patternProperties', async () => {
    const c = await check({ pattern: '[\\w-.]', patternProperties: { '(': {} }, items: { pattern: '^ok$' } });
    expect(paths(c)).toEqual(['/pattern pattern', '/patternProperties/( pattern']);
  });

  it('does not mistake data for schemas', async () => {
    expect((await check({ enum: [{ pattern: '(' }], default: { pattern: '(' } })).valid).toBe(true);
  });

  it('reports remote and dangling $refs at their place', async () => {
    // Only reachable subschemas are compiled by ajv, so the $ref sits under properties.
    const c = await check({ properties: { x: { items: { $ref: 'http://example.com/s.json#/a' } } } });
    expect(c.errors).toEqual([
      expect.objectContaining({
        path: '/properties/x/items/$ref',
        keyword: '$ref',
        params: { ref: 'http://example.com/s.json#/a' },
      }),
    ]);
    expect(paths(await check({ properties: { a: { $ref: '#/definitions/missing' } } }))).toEqual([
      '/properties/a/$ref $ref',
    ]);
  });

  it('refuses other drafts and non-schemas as errors', async () => {
    const c = await check({ $schema: 'http://json-schema.org/draft-04/schema#' });
    expect(c.errors[0]).toMatchObject({ path: '/$schema', keyword: '$schema' });
    expect((await check('[1,2]')).errors[0]).toMatchObject({ path: '', keyword: 'type' });
  });

  it('still needs valid JSON text', async () => {
    await expectToolError(check('{"type": }'), 'INVALID_INPUT', /^schema is not valid JSON/);
  });
});

describe('schema mode: LLM tool schemas', () => {
  it('accepts an OpenAI function (chat completions and responses shapes)', async () => {
    const chat = {
      type: 'function',
      function: { name: 'get_weather', description: 'x', parameters: PARAMS },
    };
    expect(await check(chat)).toMatchObject({ valid: true, kind: 'openai-function', name: 'get_weather' });
    const flat = { type: 'function', name: 'get_weather', parameters: PARAMS, strict: true };
    expect(await check(flat)).toMatchObject({ valid: true, kind: 'openai-function' });
  });

  it('checks the tool name', async () => {
    const long = 'a'.repeat(65);
    expect(paths(await check({ type: 'function', function: { name: long, parameters: PARAMS } }))).toEqual([
      '/function/name pattern',
    ]);
    expect(paths(await check({ type: 'function', function: { name: 'héllo', parameters: PARAMS } }))).toEqual(
      ['/function/name pattern'],
    );
    expect(paths(await check({ type: 'function', function: { parameters: PARAMS } }))).toEqual([
      '/function required',
    ]);
  });

  it('checks the inner schema with paths into the tool document', async () => {
    const bad = { ...PARAMS, properties: { city: { type: 'text' } } };
    const c = await check({ type: 'function', function: { name: 'f', parameters: bad } });
    expect(c.errors[0]?.path).toBe('/function/parameters/properties/city/type');
    const notObject = await check({ name: 'f', input_schema: { type: 'string' } });
    expect(paths(notObject)).toEqual(['/input_schema/type type']);
  });

  it('recognises Anthropic, MCP and bare function declarations', async () => {
    expect(await check({ name: 'get_weather', description: 'd', input_schema: PARAMS })).toMatchObject({
      valid: true,
      kind: 'anthropic-tool',
    });
    const schemaWithName = { name: 'x', type: 'object', parameters: { type: 'object' }, properties: {} };
    expect(await check(schemaWithName)).toMatchObject({ valid: true, kind: 'json-schema' });
    expect(await check({ name: 'lookup', inputSchema: PARAMS })).toMatchObject({
      valid: true,
      kind: 'mcp-tool',
    });
    expect(await check({ name: 'lookup', description: 3, parameters: PARAMS })).toMatchObject({
      valid: false,
      kind: 'function-declaration',
      errors: [{ path: '/description', keyword: 'type' }],
    });
  });

  it('requires an object input_schema for Anthropic tools', async () => {
    const c = await check(JSON.stringify({ name: 'x', input_schema: null }));
    expect(c.kind).toBe('anthropic-tool');
    expect(paths(c)).toEqual(['/input_schema type']);
  });
});
