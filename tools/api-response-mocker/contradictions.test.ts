import { describe, expect, it } from 'vitest';
import { mock, outcome } from './test-helpers.js';

describe('a schema no value fits is refused, naming the keyword and where it is', () => {
  // Before: each returned a body the schema refuses, with empty notes (e.g. ["a"] for minItems 10).
  it.each([
    [
      { type: 'array', minItems: 10, uniqueItems: true, items: { enum: ['a'] } },
      /schema at #: minItems 10 with uniqueItems needs 10 different items, but #\/items allows only 1 distinct value/,
    ],
    [
      { allOf: [{ type: 'string' }, { type: 'number' }] },
      /#\/allOf\/1 allows only number, but # allows only string/,
    ],
    [{ type: 'integer', minimum: 5, maximum: 4 }, /schema at #: minimum 5 and maximum 4 leave no value/],
    [{ type: 'string', minLength: 5, maxLength: 2 }, /schema at #: minLength 5 and maxLength 2/],
    [{ type: 'string', not: {} }, /schema at #\/not: it rejects every value/],
    [{ type: 'string', not: { type: 'string' } }, /schema at #\/not: it rejects every string/],
    [
      { type: 'object', required: ['a'], properties: { a: false } },
      /schema at #: required property "a" admits no value \(schema at #\/properties\/a is false\)/,
    ],
    [{ const: 1, type: 'string' }, /schema at #: const 1 is not of type string/],
    [{ type: 'string', enum: ['x', 'y'], const: 'z' }, /const "z" is not in enum/],
    [{ type: 'integer', enum: ['a', 1.5] }, /no enum value is of type integer/],
    [{ type: 'integer', multipleOf: 7, minimum: 1, maximum: 6 }, /no multiple of multipleOf 7 lies between/],
    [{ type: 'integer', minimum: 0.2, maximum: 0.8 }, /no integer lies between minimum 0.2 and maximum 0.8/],
    [{ type: 'array', minItems: 1, items: false }, /minItems 1 needs items, but schema at #\/items is false/],
    [{ type: 'array', minItems: 3, uniqueItems: true, items: { type: 'boolean' } }, /#\/items allows only 2/],
    [
      { type: 'array', minItems: 5, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: 3 } },
      /#\/items allows only 3 distinct values/,
    ],
    [
      { type: 'object', required: ['z'], properties: { a: {} }, additionalProperties: false },
      /required property "z" admits no value \(schema at #\/additionalProperties is false\)/,
    ],
    [
      { type: 'object', required: ['a', 'b'], maxProperties: 1 },
      /required lists 2 properties, but maxProperties/,
    ],
    [
      { type: 'object', anyOf: [{ type: 'string' }, { type: 'null' }] },
      /#\/anyOf allows only string or null/,
    ],
    [
      { $ref: '#/$defs/none', $defs: { none: { allOf: [{ type: 'string' }, { type: 'null' }] } } },
      /schema at #\/\$defs\/none\/allOf\/1 allows only null/,
    ],
    [
      { $schema: 'http://json-schema.org/draft-07/schema#', allOf: [true, false] },
      /schema at #\/allOf\/1 is false/,
    ],
  ])('%j', async (schema, message) => {
    const result = await outcome(schema);
    expect(result.kind).toBe('refused');
    expect(result.kind === 'refused' && result.message).toMatch(message);
  });

  it('a bare `false` is an example, returned as given with a note', async () => {
    const r = await mock({ response: 'false' }, 'fetch');
    expect(r.source).toBe('example');
    expect(r.response.body).toBe(false);
    expect(r.notes[0]).toMatch(/returned as given/);
  });
});
