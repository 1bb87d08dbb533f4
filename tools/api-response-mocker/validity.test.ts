import { describe, expect, it } from 'vitest';
import { mock, outcome } from './test-helpers.js';

const ROUTES = ['GET /api/mock', 'GET /a', 'POST /b/:id'];

describe('satisfiable schemas that are easy to get wrong give bodies that validate', () => {
  it.each([
    { type: 'number', multipleOf: 0.01, minimum: 0, maximum: 10 },
    // k * 1e-9 is rarely an exact multiple in doubles: the repair finds one that is.
    { type: 'number', multipleOf: 1e-9, minimum: 0.1, maximum: 0.2 },
    {
      type: 'object',
      required: ['x'],
      properties: { x: { type: 'number', multipleOf: 1e-9, minimum: 0.1, maximum: 0.2 } },
    },
    { type: 'integer', multipleOf: 0.5, minimum: 1, maximum: 3 },
    { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    { type: 'integer', exclusiveMinimum: 4, exclusiveMaximum: 6 },
    { type: 'array', minItems: 3, maxItems: 3, uniqueItems: true, items: { enum: ['a', 'b', 'c'] } },
    {
      type: 'object',
      required: ['e', 'u', 'd', 'r'],
      properties: {
        e: { type: 'string', format: 'email' },
        u: { type: 'string', format: 'uuid' },
        d: { type: 'string', format: 'date-time' },
        r: { type: 'string', format: 'uri' },
      },
    },
    { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
    {
      $ref: '#/$defs/order',
      $defs: {
        order: {
          type: 'object',
          required: ['lines'],
          properties: { lines: { type: 'array', items: { $ref: '#/$defs/line' } } },
        },
        line: { type: 'object', required: ['qty'], properties: { qty: { type: 'integer', minimum: 1 } } },
      },
    },
    {
      type: 'object',
      required: ['a'],
      properties: { a: { $ref: '#/definitions/s' } },
      definitions: { s: { type: 'string', minLength: 2, maxLength: 4 } },
    },
    { oneOf: [{ type: 'string', maxLength: 3 }, { type: 'integer' }] },
    { oneOf: [{ const: 'active' }, { const: 'banned' }] },
    { type: 'array', items: [{ type: 'string' }, { type: 'boolean' }], additionalItems: false, minItems: 2 },
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'integer' }],
      items: false,
      minItems: 2,
    },
    // Optional `b` fits nothing: it is left out (and the notes say so).
    { type: 'object', properties: { b: { type: 'integer', minimum: 0.2, maximum: 0.8 } } },
  ])('%j', async (schema) => {
    for (const route of ROUTES) {
      const result = await outcome(schema, route);
      expect(result.kind, route).not.toBe('refused');
      if (result.kind === 'noted')
        expect(result.notes.join(' ')).toMatch(/^Left out \/b: no generated value fit/);
    }
  });
});

describe('what the generator gets wrong is said in the notes', () => {
  it('a keyword the generator ignores (propertyNames), with its path', async () => {
    const schema = { type: 'object', minProperties: 1, propertyNames: { pattern: '^[A-Z]' } };
    const result = await outcome(schema);
    expect(result.kind).toBe('noted');
    expect(result.kind === 'noted' && result.notes.join(' ')).toMatch(
      /^The body does not fit the schema \(the closest of 4 generated bodies\)\. First errors: at the root \(property name "[^"]+"\), pattern \(#\/propertyNames\/pattern\): must match pattern/,
    );
  });

  it('a pattern the generator cannot read (\\p{…} classes)', async () => {
    const result = await outcome({ type: 'string', pattern: '^\\p{Lu}\\p{Ll}+$' });
    expect(result.kind === 'noted' && result.notes.join(' ')).toMatch(
      /at the root, pattern \(#\/pattern\): must match/,
    );
  });

  it('a const the bounds refuse', async () => {
    const schema = {
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'integer', const: 5, maximum: 3 } },
    };
    const result = await outcome(schema);
    expect(result.kind === 'noted' && result.notes.join(' ')).toMatch(
      /at \/a, maximum \(#\/properties\/a\/maximum\): must be <= 3/,
    );
  });

  it('a schema the validator cannot read leaves the body unchecked, and says so', async () => {
    const draft04 = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'number',
      minimum: 5,
      exclusiveMinimum: true,
    };
    const r = await mock({ response: draft04 }, 'fetch');
    expect(r.notes).toEqual([
      'The body was not checked against the schema: the validator cannot compile the schema: exclusiveMinimum value must be ["number"].',
    ]);
  });

  it('is deterministic, retries and repairs included', async () => {
    for (const schema of [
      { type: 'object', minProperties: 1, propertyNames: { pattern: '^[A-Z]' } },
      { type: 'number', multipleOf: 1e-9, minimum: 0.1, maximum: 0.2 },
    ]) {
      const a = await mock({ response: schema, route: 'GET /x' }, 'all');
      const b = await mock({ response: JSON.stringify(schema), route: 'GET /x' }, 'curl');
      expect(b.response.body).toEqual(a.response.body);
      expect(b.notes).toEqual(a.notes);
    }
  });

  it('keeps the body a valid schema gave before the check (the first seed is unchanged)', async () => {
    const schema = {
      type: 'object',
      required: ['id', 'name', 'email'],
      properties: {
        id: { type: 'integer', minimum: 1 },
        name: { type: 'string' },
        email: { type: 'string', format: 'email' },
      },
    };
    const r = await mock({ response: schema, route: 'GET /api/users/:id' }, 'msw');
    expect(r.response.body).toEqual({ id: 360, name: 'Carlie Romaguera', email: 'charlie3@demo.net' });
    expect(r.notes).toEqual([]);
  });
});
