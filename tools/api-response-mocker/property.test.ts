import { describe, expect, it } from 'vitest';
import { type Outcome, outcome } from './test-helpers.js';

type Kind = Outcome['kind'];

/**
 * A fixed list of schemas, from plain to contradictory. For each, on several routes (so
 * several seeds), the rule holds: the body validates, or the notes say why, or the tool
 * refuses naming the keyword. The kind on the default route is pinned too, so a change in
 * how a class of schema is answered shows up here.
 */
const SCHEMAS: [Kind, Record<string, unknown>][] = [
  ['valid', { type: 'string' }],
  ['valid', { type: 'integer', minimum: -5, maximum: 5 }],
  ['valid', { type: 'number', multipleOf: 0.25, exclusiveMinimum: 1, exclusiveMaximum: 2 }],
  ['valid', { type: 'number', multipleOf: 1e-9, minimum: 0.1, maximum: 0.2 }],
  ['valid', { type: 'integer', multipleOf: 3, minimum: 10, maximum: 20 }],
  ['valid', { type: 'boolean' }],
  ['valid', { type: ['string', 'null'], maxLength: 4 }],
  ['valid', { enum: [1, 'two', null, { three: 3 }] }],
  ['valid', { type: 'string', format: 'ipv4' }],
  ['valid', { type: 'string', format: 'date' }],
  ['valid', { type: 'string', pattern: '^[a-f0-9]{8}$' }],
  ['valid', { type: 'array', items: { type: 'string', format: 'email' }, minItems: 2, maxItems: 4 }],
  [
    'valid',
    { type: 'array', uniqueItems: true, minItems: 4, items: { type: 'integer', minimum: 1, maximum: 4 } },
  ],
  ['valid', { type: 'array', contains: { const: 7 }, items: { type: 'integer' } }],
  [
    'valid',
    {
      type: 'object',
      required: ['user'],
      properties: {
        user: {
          type: 'object',
          required: ['id', 'tags'],
          additionalProperties: false,
          properties: {
            id: { type: 'string', format: 'uuid' },
            tags: { type: 'array', items: { enum: ['a', 'b'] } },
          },
        },
      },
    },
  ],
  [
    'valid',
    {
      anyOf: [
        { type: 'integer', minimum: 100 },
        { type: 'string', minLength: 3 },
      ],
    },
  ],
  ['valid', { allOf: [{ type: 'object', required: ['a'] }, { properties: { a: { type: 'integer' } } }] }],
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword.
  ['valid', { if: { type: 'string' }, then: { minLength: 5 }, type: 'string' }],
  ['valid', { type: 'integer', not: { enum: [1, 2, 3] }, minimum: 1, maximum: 4 }],
  [
    'valid',
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: {
        pt: {
          type: 'object',
          required: ['x', 'y'],
          properties: { x: { type: 'number' }, y: { type: 'number' } },
        },
      },
      type: 'array',
      minItems: 1,
      items: { $ref: '#/$defs/pt' },
    },
  ],
  ['noted', { type: 'object', minProperties: 1, propertyNames: { pattern: '^[A-Z]' } }],
  ['noted', { type: 'string', pattern: '^\\p{Lu}{2}$' }],
  ['noted', { type: 'integer', const: 5, maximum: 3 }],
  ['refused', { type: 'array', minItems: 10, uniqueItems: true, items: { enum: ['a'] } }],
  ['refused', { allOf: [{ type: 'string' }, { type: 'number' }] }],
  ['refused', { type: 'integer', minimum: 5, maximum: 4 }],
  ['refused', { type: 'string', minLength: 5, maxLength: 2 }],
  ['refused', { type: 'number', not: {} }],
  ['refused', { type: 'object', required: ['a'], properties: { a: false } }],
  ['refused', { const: 1, type: 'string' }],
  [
    'refused',
    {
      type: 'object',
      properties: { list: { type: 'array', minItems: 2, items: { not: {} } } },
      required: ['list'],
    },
  ],
];

describe('every generated body validates, or the answer says why', () => {
  it.each(SCHEMAS)('%s: %j', async (kind, schema) => {
    const first = await outcome(schema);
    expect(first.kind).toBe(kind);
    for (const route of ['GET /p/1', 'PUT /p/:id', 'DELETE /q']) await outcome(schema, route);
  });
});
