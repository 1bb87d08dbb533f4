import { describe, expect, it } from 'vitest';
import { runToolSync } from '../_shared/test-helpers.js';
import { compile, fillMissing, strictViolations } from './oracle.js';
import run, { DRAFT_07 } from './run.js';
import def from './tool.js';

const generate = (input: Record<string, unknown>, mode?: string) => runToolSync({ def, run }, input, mode);

const PERSON = {
  id: 'c56a4180-65aa-42ec-a945-5fd21dec0538',
  name: 'Ada',
  age: 36,
  score: 9.5,
  active: true,
  email: 'ada@example.com',
  site: 'https://ada.dev/notes?x=1',
  born: '1815-12-10',
  updated: '2024-05-01T10:00:00Z',
  ip: '10.0.0.1',
  nick: null,
  tags: ['math', 'engines'],
  friends: [{ name: 'Charles', age: 41 }, { name: 'Mary' }],
  history: [],
};

type Props = Record<string, Record<string, unknown>>;
const propsOf = (schema: Record<string, unknown>) => schema.properties as Props;

describe('schema-generator draft-07 mode', () => {
  const { schema, samples, warnings } = generate({ sample: PERSON, title: 'Person' }, 'draft-07');
  const props = propsOf(schema);

  it('emits a titled draft-07 object schema', () => {
    expect(schema).toMatchObject({ $schema: DRAFT_07, title: 'Person', type: 'object' });
    expect(Object.keys(props)).toEqual(Object.keys(PERSON));
    expect(samples).toBe(1);
    expect(warnings).toEqual([]);
  });

  it('infers integer, number, boolean and null', () => {
    expect(props.age).toEqual({ type: 'integer' });
    expect(props.score).toEqual({ type: 'number' });
    expect(props.active).toEqual({ type: 'boolean' });
    expect(props.nick).toEqual({ type: 'null' });
  });

  it('detects string formats', () => {
    expect(props.id).toEqual({ type: 'string', format: 'uuid' });
    expect(props.email).toEqual({ type: 'string', format: 'email' });
    expect(props.site).toEqual({ type: 'string', format: 'uri' });
    expect(props.born).toEqual({ type: 'string', format: 'date' });
    expect(props.updated).toEqual({ type: 'string', format: 'date-time' });
    expect(props.ip).toEqual({ type: 'string', format: 'ipv4' });
    expect(props.name).toEqual({ type: 'string' });
  });

  it('merges array items and requires keys present and non-null everywhere', () => {
    expect(props.tags).toEqual({ type: 'array', items: { type: 'string' } });
    expect(props.friends).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'integer' } },
        required: ['name'],
      },
    });
    expect(props.history).toEqual({ type: 'array', items: {} });
    expect(schema.required).toEqual(Object.keys(PERSON).filter((k) => k !== 'nick'));
  });

  it('validates its sample and rejects wrong documents (ajv oracle)', () => {
    const validate = compile(schema);
    expect(validate(PERSON)).toBe(true);
    expect(validate({ ...PERSON, age: 'old' })).toBe(false);
    expect(validate({ ...PERSON, email: 'not an email' })).toBe(false);
    const { name: _dropped, ...nameless } = PERSON;
    expect(validate(nameless)).toBe(false);
    expect(validate({ ...PERSON, friends: [{ age: 3 }] })).toBe(false);
    expect(validate([PERSON])).toBe(false);
  });

  it('reads JSON text and a JSON value alike, and omits an empty title', () => {
    const fromText = generate({ sample: JSON.stringify(PERSON), title: '' }, 'draft-07');
    const fromValue = generate({ sample: PERSON }, 'draft-07');
    expect(fromText).toEqual(fromValue);
    expect(fromValue.schema.title).toBeUndefined();
  });

  it('widens integer with fractions to number and mixes primitives in a type array', () => {
    const { schema: s } = generate({ sample: [1, 2.5, 'x', null, true] }, 'draft-07');
    expect(s).toMatchObject({ type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } });
    expect(compile(s)([1, 2.5, 'x', null, true])).toBe(true);
    expect(compile(s)([{}])).toBe(false);
  });

  it('uses anyOf when objects or arrays mix with other types', () => {
    const sample = [{ a: 1 }, [1], 'x', null];
    const { schema: s } = generate({ sample }, 'draft-07');
    const items = s.items as { anyOf: Record<string, unknown>[] };
    expect(items.anyOf.map((alt) => alt.type)).toEqual(['object', 'array', 'string', 'null']);
    expect(compile(s)(sample)).toBe(true);
    expect(compile(s)([true])).toBe(false);
  });

  it('handles scalar roots, Unicode and keys such as __proto__', () => {
    expect(generate({ sample: '"héllo 😀"' }, 'draft-07').schema).toEqual({
      $schema: DRAFT_07,
      type: 'string',
    });
    expect(generate({ sample: 'null' }, 'draft-07').schema).toEqual({ $schema: DRAFT_07, type: 'null' });
    const sample = JSON.parse('{"__proto__": {"x": 1}, "ключ": "значение", "😀": 1}');
    const { schema: s } = generate({ sample }, 'draft-07');
    expect(Object.keys(propsOf(s))).toEqual(['__proto__', 'ключ', '😀']);
    expect(Object.getPrototypeOf(s.properties)).toBe(Object.prototype);
    const proto = Object.getOwnPropertyDescriptor(s.properties, '__proto__')?.value;
    expect(proto).toMatchObject({ type: 'object', required: ['x'] });
    expect(compile(s)(sample)).toBe(true);
    expect(compile(s)({ ...sample, ключ: 1 })).toBe(false);
    // (ajv deliberately ignores a "__proto__" entry of properties, so it cannot check that one.)
  });

  it('is deterministic', () => {
    expect(generate({ sample: PERSON }, 'strict')).toEqual(generate({ sample: PERSON }, 'strict'));
  });
});

describe('schema-generator strict mode', () => {
  const { schema, warnings } = generate({ sample: PERSON, title: 'Person' }, 'strict');
  const props = propsOf(schema);

  it('requires every property and closes every object', () => {
    expect(strictViolations(schema)).toEqual([]);
    expect(schema.required).toEqual(Object.keys(PERSON));
    expect(schema.additionalProperties).toBe(false);
  });

  it('makes optional properties nullable instead of optional', () => {
    const friend = (props.friends as { items: { properties: Props } }).items.properties;
    expect(friend.age).toEqual({ type: ['integer', 'null'] });
    expect(friend.name).toEqual({ type: 'string' });
  });

  it('drops the uri format and types the items of arrays only seen empty', () => {
    expect(props.site).toEqual({ type: 'string' });
    expect(props.id).toEqual({ type: 'string', format: 'uuid' });
    expect(props.history).toEqual({
      type: 'array',
      items: { type: ['string', 'number', 'boolean', 'null'] },
    });
  });

  it('lists in a warning the properties that were missing somewhere', () => {
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/required but nullable in strict mode.*: \$\.friends\[\*\]\.age\.$/);
  });

  it('validates its sample, with absent keys as null, and rejects extra or missing ones (ajv oracle)', () => {
    const validate = compile(schema);
    expect(validate(PERSON)).toBe(false); // friends[1] lacks age, which strict output must carry
    const filled = fillMissing(PERSON, schema) as typeof PERSON;
    expect(filled.friends[1]).toEqual({ name: 'Mary', age: null });
    expect(validate(filled)).toBe(true);
    expect(validate({ ...filled, extra: 1 })).toBe(false);
    expect(validate({ ...PERSON, friends: [{ name: 'x' }] })).toBe(false); // age must be there, maybe null
    expect(validate({ ...PERSON, friends: [{ name: 'x', age: null }] })).toBe(true);
  });

  it('uses anyOf for a nullable object and warns when the root is not an object', () => {
    const { schema: s, warnings: w } = generate({ sample: [{ a: { b: 1 } }, { a: null }] }, 'strict');
    const a = (s.items as { properties: Props }).properties.a as { anyOf: unknown[] };
    expect(a.anyOf).toEqual([
      {
        type: 'object',
        properties: { b: { type: 'integer' } },
        required: ['b'],
        additionalProperties: false,
      },
      { type: 'null' },
    ]);
    expect(strictViolations(s)).toEqual([]);
    expect(w).toEqual([expect.stringMatching(/root schema to be an object/)]);
  });
});
