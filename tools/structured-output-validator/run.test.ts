import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

const sov = toolRunner(tool, run);

import { CACHE_MAX, cacheSize } from './validator-cache.js';

type Result = {
  valid: boolean;
  errors: { path: string; keyword: string; message: string; params?: Record<string, unknown> }[];
  errorCount: number;
  truncated: boolean;
  kind: string;
};
const validate = async (schema: unknown, target: unknown) =>
  (await sov({ schema, target }, 'validate')) as Result;

const PERSON = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 3 },
    age: { type: 'integer', minimum: 0 },
    email: { type: 'string', format: 'email' },
    'a/b~c': { type: 'boolean' },
  },
  required: ['name', 'age'],
  additionalProperties: false,
};

describe('validate mode', () => {
  it('accepts a conforming instance, given as text or as values', async () => {
    expect(await validate(JSON.stringify(PERSON), '{"name":"Ada","age":36}')).toEqual({
      valid: true,
      errors: [],
      errorCount: 0,
      truncated: false,
      kind: 'json-schema',
    });
    expect((await validate(PERSON, { name: 'Ada', age: 36, email: 'ada@example.org' })).valid).toBe(true);
  });

  it('reports every error with a JSON Pointer path, keyword, message and schemaPath', async () => {
    const r = await validate(PERSON, { name: 5, age: -1, email: 'nope', 'a/b~c': 1, extra: true });
    expect(r.valid).toBe(false);
    expect(r.errorCount).toBe(5);
    const byPath = Object.fromEntries(r.errors.map((e) => [e.path, e.keyword]));
    expect(byPath).toEqual({
      '': 'additionalProperties',
      '/name': 'type',
      '/age': 'minimum',
      '/email': 'format',
      '/a~1b~0c': 'type',
    });
    expect(r.errors.find((e) => e.path === '')?.params).toEqual({ additionalProperty: 'extra' });
    expect(r.errors.find((e) => e.path === '/age')).toMatchObject({ schemaPath: '#/properties/age/minimum' });
  });

  it('reports a missing required property at the parent object', async () => {
    const r = await validate(PERSON, { name: 'Ada' });
    expect(r.errors).toEqual([
      expect.objectContaining({ path: '', keyword: 'required', params: { missingProperty: 'age' } }),
    ]);
  });

  it('looks only at own properties (names like toString or constructor)', async () => {
    expect((await validate({ required: ['constructor'] }, '{}')).valid).toBe(false);
    expect((await validate({ properties: { toString: { type: 'string' } } }, '{}')).valid).toBe(true);
    expect((await validate({ properties: { toString: { type: 'string' } } }, '{"toString": 1}')).valid).toBe(
      false,
    );
  });

  it('counts string length in code points (Unicode)', async () => {
    expect((await validate(PERSON, { name: '😀é字', age: 1 })).valid).toBe(true);
    const r = await validate(PERSON, { name: '😀😀😀😀', age: 1 });
    expect(r.errors[0]).toMatchObject({ path: '/name', keyword: 'maxLength' });
  });

  it('caps the reported errors but counts them all', async () => {
    const r = await validate(
      { type: 'array', items: { type: 'string' } },
      Array.from({ length: 250 }, (_, i) => i),
    );
    expect(r.errorCount).toBe(250);
    expect(r.errors).toHaveLength(100);
    expect(r.truncated).toBe(true);
    expect(r.errors[99]?.path).toBe('/99');
  });

  it('validates a target near the 256 KiB policy limit', async () => {
    const target = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => `v${i}`));
    expect(target.length).toBeGreaterThan(200_000);
    const r = await validate({ type: 'array', items: { type: 'string', pattern: '^v\\d+$' } }, target);
    expect(r.valid).toBe(true);
  });

  it('resolves local $refs and $ids defined in the schema', async () => {
    const schema = {
      $id: 'http://example.com/root.json',
      definitions: { pos: { $id: 'pos.json', type: 'integer', minimum: 1 } },
      properties: { a: { $ref: '#/definitions/pos' }, b: { $ref: 'pos.json' } },
    };
    const r = await validate(schema, { a: 1, b: 0 });
    expect(r.errors.map((e) => e.path)).toEqual(['/b']);
    // The same $id in another schema must not clash with the first one (no shared registry).
    const other = { $id: 'http://example.com/root.json', type: 'string' };
    expect((await validate(other, '"x"')).valid).toBe(true);
  });

  it('supports boolean and $async schemas', async () => {
    expect((await validate(true, '{"any":1}')).valid).toBe(true);
    expect((await validate('false', '1')).errors[0]).toMatchObject({ path: '', keyword: 'false schema' });
    const r = await validate({ $async: true, type: 'string' }, '1');
    expect(r).toMatchObject({ valid: false, errorCount: 1, errors: [{ path: '', keyword: 'type' }] });
  });

  it('accepts the draft-07 $schema, refuses other drafts', async () => {
    const ok = { $schema: 'https://json-schema.org/draft-07/schema#', type: 'integer' };
    expect((await validate(ok, '1')).valid).toBe(true);
    const later = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'integer' };
    await expectToolError(validate(later, '1'), 'INVALID_INPUT', /draft-07.*2020-12/);
  });

  it('never fetches a remote $ref', async () => {
    const schema = { properties: { a: { $ref: 'https://example.com/evil.json' } } };
    await expectToolError(validate(schema, '{}'), 'INVALID_INPUT', /properties\/a\/\$ref'.*never fetched/);
    await expectToolError(
      validate({ $ref: '#/definitions/none' }, '{}'),
      'INVALID_INPUT',
      /cannot be resolved/,
    );
  });

  it('refuses an invalid schema, naming the place', async () => {
    await expectToolError(
      validate({ properties: { a: { type: 'strin' } } }, '{}'),
      'INVALID_INPUT',
      /'\/properties\/a\/type'/,
    );
    await expectToolError(
      validate({ pattern: '(' }, '"x"'),
      'INVALID_INPUT',
      /'\/pattern'.*regular expression/,
    );
    // An array value is refused by the input schema; as JSON text it reaches the tool.
    await expectToolError(validate([1], '{}'), 'INVALID_INPUT', /^schema must be string,object,boolean/);
    await expectToolError(validate('[1]', '{}'), 'INVALID_INPUT', /object or a boolean, got an array/);
  });

  it('says which field is bad JSON and where', async () => {
    await expectToolError(
      validate(PERSON, '{"name": "Ada",\n  "age": }'),
      'INVALID_INPUT',
      /^target is not valid JSON: .*line 2, column 10.*lenient/s,
    );
    await expectToolError(validate('{"type": "object",', '{}'), 'INVALID_INPUT', /^schema is not valid JSON/);
    await expectToolError(validate(PERSON, '   '), 'INVALID_INPUT', /^target is empty/);
    await expectToolError(sov({ schema: PERSON }, 'validate'), 'INVALID_INPUT', /^target is required/);
    await expectToolError(sov({ target: '{}' }, 'validate'), 'INVALID_INPUT', /^schema is required/);
  });

  it('validates against the parameters of tool schemas', async () => {
    const params = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const anthropic = { name: 'get_weather', description: 'Weather', input_schema: params };
    expect(await validate(anthropic, { city: 3 })).toMatchObject({
      valid: false,
      kind: 'anthropic-tool',
      errors: [{ path: '/city', keyword: 'type' }],
    });
    const openai = { type: 'function', function: { name: 'ping' } };
    expect(await validate(openai, '{}')).toMatchObject({ valid: true, kind: 'openai-function' });
    expect((await validate(openai, '[]')).valid).toBe(false);
  });

  it('keeps a bounded cache of compiled validators', async () => {
    for (let i = 0; i < CACHE_MAX + 10; i++) await validate({ const: i }, String(i));
    expect(cacheSize()).toBe(CACHE_MAX);
    const before = cacheSize();
    expect((await validate({ const: 3 }, '4')).valid).toBe(false);
    expect(cacheSize()).toBe(before);
  });
});
