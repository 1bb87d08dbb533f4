import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { serveExpress, serveFetch, serveMsw, servePython } from './test-harness.js';
import { mock } from './test-helpers.js';

const refusal = async (response: unknown): Promise<string> =>
  (await expectToolError(mock({ response }, 'fetch'), 'INVALID_INPUT')).message;

describe('a __proto__ key in the body', () => {
  // Before: `const mockBody = {"__proto__": …}` set the prototype, and every JS target served {"a":2}.
  it.each([
    ['an example', '{"__proto__": {"x": 1}, "a": 2}'],
    ['a schema const', '{"type": "object", "const": {"__proto__": {"x": 1}, "a": 2}}'],
  ])('reaches every target in %s', async (_, response) => {
    const result = await mock({ response }, 'all');
    const body = result.response.body;
    expect(JSON.stringify(body)).toBe('{"__proto__":{"x":1},"a":2}');
    expect((await serveFetch(result.snippets.fetch!, '/api/mock')).body).toEqual(body);
    expect(serveMsw(result.snippets.msw!).body).toEqual(body);
    expect(serveExpress(result.snippets.express!).body).toEqual(body);
    expect(servePython(result.snippets.python!).body).toEqual(body);
  });

  // Before: generated as `{"a": 1}`, silently missing the required property.
  it.each([
    { type: 'object', properties: { ['__proto__']: { type: 'string' } } },
    { type: 'object', required: ['__proto__'] },
  ])('is refused as a schema property name (%j)', async (schema) => {
    expect(await refusal(JSON.stringify(schema))).toMatch(/property named __proto__ is not supported/);
  });
});

describe('schemas that no value fits', () => {
  // Before: json-schema-faker returned 8 for minimum 10 / maximum 1, a value the schema refuses.
  it.each([
    [{ type: 'integer', minimum: 10, maximum: 1 }, /minimum 10 and maximum 1 leave no value/],
    [{ type: 'string', minLength: 100, maxLength: 5 }, /minLength 100 and maxLength 5/],
    [{ type: 'array', minItems: 3, maxItems: 2 }, /minItems 3 and maxItems 2/],
    [{ type: 'number', exclusiveMinimum: 5, maximum: 5 }, /exclusiveMinimum 5 and maximum 5/],
  ])('%j', async (schema, message) => {
    expect(await refusal(JSON.stringify(schema))).toMatch(message);
  });

  // Before: json-schema-faker returned k * 0.5, e.g. 108.5, for an integer.
  it.each([0.5, 2.5, 0.3])('an integer with multipleOf %d stays an integer multiple', async (step) => {
    for (const route of ['GET /a', 'GET /b', 'GET /c', 'GET /d']) {
      const schema = { type: 'integer', minimum: 1, maximum: 1000, multipleOf: step };
      const body = (await mock({ response: schema, route }, 'fetch')).response.body as number;
      expect(Number.isInteger(body) && Math.abs(body / step - Math.round(body / step)) < 1e-9).toBe(true);
    }
  });

  it('still accepts equal bounds', async () => {
    const result = await mock({ response: { type: 'integer', minimum: 3, maximum: 3 } }, 'fetch');
    expect(result.response.body).toBe(3);
  });
});

describe('reference blow-ups', () => {
  const chain = (n: number, keyword: string) => {
    const defs: Record<string, unknown> = { [`d${n}`]: { type: 'string' } };
    for (let i = 0; i < n; i++) {
      const next = { $ref: `#/$defs/d${i + 1}` };
      defs[`d${i}`] = { [keyword]: [next, next] };
    }
    return { $defs: defs, $ref: '#/$defs/d0' };
  };

  // Before: 20 definitions of two allOf refs each kept a worker busy for minutes.
  // The refusal names the bound checked before any data is generated.
  it('refuses allOf refs that double at every level', async () => {
    expect(await refusal(chain(20, 'allOf'))).toMatch(/expand to more than 10000 subschemas/);
  });

  // Before: json-schema-faker merged this allOf forever.
  it.each([
    { $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' },
    {
      $defs: { a: { type: 'object', allOf: [{ $ref: '#/$defs/b' }] }, b: { allOf: [{ $ref: '#/$defs/a' }] } },
      $ref: '#/$defs/a',
    },
    { allOf: [{ $ref: '#' }] },
  ])('refuses an allOf that includes itself (%j)', async (schema) => {
    expect(await refusal(schema)).toMatch(/allOf includes itself/);
  });

  it('keeps small chains and recursive trees', async () => {
    await expect(mock({ response: chain(6, 'allOf') }, 'fetch')).resolves.toMatchObject({ source: 'schema' });
    const tree = {
      type: 'object',
      required: ['name', 'children'],
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
    };
    const result = await mock({ response: tree }, 'fetch');
    expect(result.response.body).toMatchObject({ name: expect.any(String), children: expect.any(Array) });
  });
});

// Before: "response is not valid JSON: Unexpected end of JSON input".
it.each(['', '  \n'])('an empty response text (%j) is named as missing', async (response) => {
  expect(await refusal(response)).toBe('response is required: a JSON example or a JSON Schema');
});

describe('numbers a double cannot hold', () => {
  // Before: the id came back as 12345678901234567000 with no word about it.
  it('are named in a note', async () => {
    const result = await mock({ response: '{"id": 12345678901234567890, "ok": 0.5}' }, 'fetch');
    expect(result.notes[0]).toMatch(
      /12345678901234567890 has no exact JavaScript form; it reads as 12345678901234567000/,
    );
    const plain = await mock({ response: '{"id": 123, "ok": 0.5, "e": 1E3}' }, 'fetch');
    expect(plain.notes.join(' ')).not.toMatch(/exact/);
  });
});
