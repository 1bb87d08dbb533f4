import { Ajv } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { checkPattern } from './pattern-budget.js';
import { mock } from './test-helpers.js';

// The natural oracle: generated data must validate against the schema it came from.
// ajv-formats is CommonJS with a default export; under NodeNext the callable is `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validates = (schema: object, data: unknown): void => {
  const validate = ajv.compile(schema);
  expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
};

const user = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['id', 'email', 'roles'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: 'string', format: 'email' },
    website: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    score: { type: 'number' },
    roles: { type: 'array', items: { enum: ['admin', 'user'] }, minItems: 1, uniqueItems: true },
    code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
    address: { $ref: '#/definitions/address' },
    tags: { type: 'array', items: { type: 'string', maxLength: 8 }, maxItems: 1000000 },
    pair: { type: 'array', items: [{ type: 'string' }, { type: 'boolean' }], additionalItems: false },
    status: { oneOf: [{ const: 'active' }, { const: 'banned' }] },
  },
  definitions: {
    address: {
      type: 'object',
      required: ['city', 'zip'],
      properties: { city: { type: 'string' }, zip: { type: 'string' }, lat: { type: 'number' } },
    },
  },
};

describe('schemas', () => {
  it('generate valid, realistic data', async () => {
    const r = await mock({ response: user }, 'all');
    expect(r.source).toBe('schema');
    validates(user, r.response.body);
    const body = r.response.body as Record<string, unknown>;
    expect(body.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/i);
    expect(body.website).toMatch(/^https?:\/\//);
    expect(body.id).toBeGreaterThan(0);
    expect((body.tags as unknown[]).length).toBeLessThanOrEqual(10);
  });

  it('are deterministic, across targets too, and seeded by the route', async () => {
    const a = await mock({ response: JSON.stringify(user), route: 'GET /users/:id' }, 'all');
    const b = await mock({ response: user, route: 'GET /users/:id', status: 201 }, 'fetch');
    expect(b.response.body).toEqual(a.response.body);
    expect(b.seed).toBe(a.seed);
    const c = await mock({ response: user, route: 'GET /people/:id' }, 'all');
    expect(c.seed).not.toBe(a.seed);
    validates(user, c.response.body);
  });

  it.each([
    ['a bare type', { type: 'string' }, 'string'],
    ['properties only', { properties: { n: { type: 'integer' } } }, 'object'],
    ['an array schema', { type: 'array', items: { type: 'boolean' } }, 'array'],
    ['a type list', { type: ['null'] }, 'object'],
  ])('recognise %s', async (_, schema, kind) => {
    const r = await mock({ response: schema }, 'curl');
    expect(r.source).toBe('schema');
    validates(schema, r.response.body);
    expect(Array.isArray(r.response.body) ? 'array' : typeof r.response.body).toBe(kind);
  });

  it('follow local and recursive refs within bounds', async () => {
    const tree = {
      $ref: '#/$defs/node',
      $defs: {
        node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } },
      },
    };
    const r = await mock({ response: tree }, 'fetch');
    expect(JSON.stringify(r.response.body).length).toBeLessThan(100_000);
  });

  it('ignore user faker keywords and patternProperties', async () => {
    const schema = {
      type: 'object',
      required: ['s'],
      properties: { s: { type: 'string', maxLength: 5, faker: { 'string.alpha': [1e9] } } },
      patternProperties: { '(a+)+$': { type: 'string' } },
    };
    const r = await mock({ response: schema }, 'fetch');
    expect((r.response.body as { s: string }).s.length).toBeLessThanOrEqual(5);
  });
});

describe('schema refusals', () => {
  const refuse = (schema: unknown, message: RegExp) =>
    expectToolError(mock({ response: schema }, 'all'), 'INVALID_INPUT', message);
  const nestArrays = (n: number): object =>
    n === 0 ? { type: 'string' } : { type: 'array', minItems: 10, items: nestArrays(n - 1) };

  it.each([
    [
      'a remote $ref',
      { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } },
      /only local references/,
    ],
    ['a file $ref', { $ref: 'file:///etc/passwd', type: 'object' }, /only local references/],
    [
      'a pattern no regex engine reads',
      { type: 'string', pattern: '[z-a]' },
      /is not a valid regular expression: Range out of order/,
    ],
    [
      'a missing local $ref',
      { type: 'object', properties: { a: { $ref: '#/$defs/none' } } },
      /cannot generate data/,
    ],
    ['minItems over 50', { type: 'array', minItems: 51 }, /minItems is above 50/],
    ['minLength over 1000', { type: 'string', minLength: 1001 }, /minLength is above 1000/],
    ['a huge repeat', { type: 'string', pattern: 'a{100000}' }, /repeats more than 1000/],
    ['nested repeats', { type: 'string', pattern: '(a{100}){100}' }, /over 1000 characters/],
    [
      'an unknown type',
      { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'strng' },
      /#\/type must be one of/,
    ],
    [
      'a non-schema subschema',
      { type: 'object', properties: { a: 5 } },
      /#\/properties\/a must be an object or a boolean/,
    ],
    ['too many values', nestArrays(5), /more than 5000 values/],
    [
      'deep nesting',
      JSON.parse(`${'{"type":"object","properties":{"a":'.repeat(34)}{"type":"null"}${'}}'.repeat(34)}`),
      /deeper than 32/,
    ],
    [
      'too many subschemas',
      {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`p${i}`, { type: 'null' }])),
      },
      /more than 1000 subschemas/,
    ],
  ])('%s', async (_, schema, message) => {
    await refuse(schema, message);
  });
});

describe('pattern budget', () => {
  it.each(['^[A-Z]{3}-\\d{4}$', '(foo|bar)+baz*', '[\\u0000-\\uffff]{0,10}', '(?<year>\\d{4})-(?:\\d{2})'])(
    'accepts %j',
    (p) => {
      expect(() => checkPattern(p)).not.toThrow();
    },
  );

  it.each(['a)b{1000}c{1000}', '((((a+)+)+)+)+', 'x'.repeat(257), '[\u0000-\uffff][\u0000-\uffff]'])(
    'refuses %j',
    async (p) => {
      await expectToolError(() => checkPattern(p), 'INVALID_INPUT');
    },
  );

  it.each([
    ['(', 'Unterminated group'],
    ['a)b{5}', "Unmatched ')'"],
    ['[b-a]', 'Range out of order in character class'],
  ])('refuses %j as no regular expression (%s), rather than mocking an empty string', async (p, why) => {
    await expectToolError(
      () => checkPattern(p),
      'INVALID_INPUT',
      `pattern '${p}' is not a valid regular expression: ${why}`,
    );
  });

  it('accepts a pattern valid only without the u flag', () => {
    const pattern = '^a\\-b$';
    expect(() => new RegExp(pattern, 'u')).toThrow();
    expect(() => checkPattern(pattern)).not.toThrow();
  });
});
