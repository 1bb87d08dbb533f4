import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import def from './tool.js';

const sov = toolRunner(def, run);

/**
 * A key named `__proto__` is data like any other. ajv 8 skips it in `properties`,
 * `patternProperties` and `dependencies` (so plain ajv is no oracle there): the oracle is
 * ajv on the same texts with the key renamed, mapped back. Where ajv does read the key
 * (required, const, propertyNames...), plain ajv with ownProperties is the oracle.
 */
const ALIAS = '__alias__';
type Issue = { path: string; keyword: string; message?: string; params?: unknown; schemaPath?: string };
type Out = { valid: boolean; errors: Issue[] };

const sorted = (list: Issue[]) =>
  list
    .map(({ path, keyword, message, params, schemaPath }) => ({ path, keyword, message, params, schemaPath }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

function oracle(schema: string, target: string, alias = ALIAS): Out {
  const rename = (text: string) => text.replaceAll('__proto__', alias);
  const ajv = new Ajv({ allErrors: true, strict: false, ownProperties: true, logger: false });
  const validate = ajv.compile(JSON.parse(rename(schema)));
  const valid = validate(JSON.parse(rename(target))) as boolean;
  const errors = (validate.errors ?? []).map((e) => ({ ...e, path: e.instancePath }));
  return { valid, errors: JSON.parse(JSON.stringify(sorted(errors)).replaceAll(alias, '__proto__')) };
}

async function tool(schema: string, target: string, mode: 'validate' | 'lenient'): Promise<Out> {
  const text = mode === 'lenient' ? `Here you are:\n\`\`\`json\n${target}\n\`\`\`\nDone.` : target;
  const out = (await sov({ schema, target: text }, mode)) as Out;
  return { valid: out.valid, errors: sorted(out.errors) };
}

const PROTO_OWN = Object.getOwnPropertyNames(Object.prototype);
afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(PROTO_OWN);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
});

const nine = Object.fromEntries('abcdefghi'.split('').map((k) => [k, {}]));
const RENAMED: [string, string[]][] = [
  ['{"properties":{"__proto__":{"type":"number"}}}', ['{"__proto__":"foo"}', '{"__proto__":1}', '{}']],
  [
    '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"polluted":{"type":"boolean"}},"required":["polluted"]}},"required":["__proto__"],"additionalProperties":false}',
    ['{"__proto__":{"polluted":true}}', '{"__proto__":{"polluted":"yes"}}', '{"__proto__":{}}', '{"x":1}'],
  ],
  ['{"patternProperties":{"__proto__":{"type":"string"}}}', ['{"__proto__":1}', '{"a__proto__b":1}']],
  ['{"patternProperties":{"^__proto__$":{"maximum":3}},"additionalProperties":false}', ['{"__proto__":5}']],
  [
    '{"properties":{"__proto__":{"type":"number"}},"patternProperties":{"^__proto__$":{"minimum":10}}}',
    ['{"__proto__":5}', '{"__proto__":"x"}', '{"__proto__":11}'],
  ],
  ['{"properties":{"__proto__":false}}', ['{"__proto__":null}', '{}']],
  ['{"dependencies":{"__proto__":["a","b"]}}', ['{"__proto__":1}', '{"__proto__":1,"a":1}', '{"a":1}']],
  ['{"dependencies":{"__proto__":{"required":["c"]},"c":["__proto__"]}}', ['{"__proto__":1}', '{"c":1}']],
  [
    '{"properties":{"a":{"properties":{"__proto__":{"enum":[1,2]}}}},"additionalProperties":{"properties":{"__proto__":{"type":"string"}}}}',
    ['{"a":{"__proto__":3},"b":{"__proto__":4}}'],
  ],
  ['{"items":{"properties":{"__proto__":{"type":"integer"}}}}', ['[{"__proto__":1.5},{"__proto__":2}]']],
  [
    JSON.stringify({
      properties: { ...nine, ['__proto__']: { type: 'string' } },
      additionalProperties: false,
    }),
    ['{"__proto__":1,"z":1}', '{"__proto__":"s"}'],
  ],
  [
    '{"definitions":{"__proto__":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/__proto__"}}}',
    ['{"a":1}'],
  ],
  [
    '{"properties":{"a b/c%~":{"properties":{"__proto__":{"type":"null"}}}}}',
    ['{"a b/c%~":{"__proto__":0}}'],
  ],
];

describe('a property named __proto__ is validated like any other', () => {
  it('the reported case: properties.__proto__ is checked', async () => {
    const schema = '{"properties":{"__proto__":{"type":"number"}}}';
    for (const mode of ['validate', 'lenient'] as const) {
      expect(await tool(schema, '{"__proto__":"foo"}', mode)).toEqual({
        valid: false,
        errors: [
          {
            path: '/__proto__',
            keyword: 'type',
            message: 'must be number',
            params: { type: 'number' },
            schemaPath: '#/properties/__proto__/type',
          },
        ],
      });
    }
  });

  it.each(RENAMED)('as ajv does for any other name: %s', async (schema, targets) => {
    for (const target of targets) {
      const expected = oracle(schema, target);
      expect(await tool(schema, target, 'validate'), target).toEqual(expected);
      expect(await tool(schema, target, 'lenient'), target).toEqual(expected);
    }
  });

  it.each([
    [
      '{"required":["__proto__","constructor","prototype"]}',
      ['{}', '{"__proto__":1,"constructor":1,"prototype":1}'],
    ],
    [
      '{"properties":{"constructor":{"type":"string"},"prototype":{"type":"string"},"toString":{"type":"string"}},"additionalProperties":false}',
      ['{"constructor":1,"prototype":[],"toString":null}', '{}', '{"__proto__":1}'],
    ],
    ['{"additionalProperties":false}', ['{"__proto__":1}']],
    ['{"propertyNames":{"pattern":"^[a-z]+$"},"minProperties":1}', ['{"__proto__":1}']],
    ['{"const":{"__proto__":{"a":1}}}', ['{"__proto__":{"a":1}}', '{"__proto__":{"a":2}}', '{}']],
    ['{"enum":[{"__proto__":1}]}', ['{"__proto__":1}', '{}']],
  ])('as plain ajv (own properties) where ajv reads the key: %s', async (schema, targets) => {
    for (const target of targets) {
      // An alias that is never in the texts: no renaming at all.
      const expected = oracle(schema, target, '__proto__');
      expect(await tool(schema, target, 'validate'), target).toEqual(expected);
      expect(await tool(schema, target, 'lenient'), target).toEqual(expected);
    }
  });

  it('inside a schema with its own $id, reached by that $id', async () => {
    const schema =
      '{"definitions":{"x":{"$id":"http://example.com/x","properties":{"__proto__":{"type":"number"}}}},"properties":{"y":{"$ref":"http://example.com/x"}}}';
    const target = '{"y":{"__proto__":"s"}}';
    const { errors, ...rest } = oracle(schema, target);
    // ajv writes the schemaPath of another name as "http://example.com/x/properties/…";
    // a __proto__ property is reached by a `$ref` inside that schema, so its path is from there.
    const expected = {
      ...rest,
      errors: errors.map((e) => ({ ...e, schemaPath: '#/properties/__proto__/type' })),
    };
    expect(await tool(schema, target, 'validate')).toEqual(expected);
    expect(await tool(schema, target, 'lenient')).toEqual(expected);
  });

  it('keeps the errors of dependencies in ajv order for every schema', async () => {
    const schema =
      '{"required":["r"],"dependencies":{"a":["b"],"__proto__":{"minProperties":9}},"properties":{"a":{"type":"string"}}}';
    const target = '{"a":1,"__proto__":0}';
    const ajv = new Ajv({ allErrors: true, strict: false, ownProperties: true, logger: false });
    const plain = ajv.compile(JSON.parse(schema.replace('__proto__', ALIAS)));
    plain(JSON.parse(target.replace('__proto__', ALIAS)));
    const out = (await sov({ schema, target }, 'validate')) as Out;
    expect(out.errors.map((e) => e.schemaPath)).toEqual(
      plain.errors?.map((e) => e.schemaPath.replace(ALIAS, '__proto__')),
    );
  });

  it('takes schemas and targets given as values, and leaves them untouched', async () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"properties":{"polluted":{"const":1}}}}}');
    const target = JSON.parse('{"__proto__":{"polluted":2}}');
    const before = JSON.stringify([schema, target]);
    const out = (await sov({ schema, target }, 'validate')) as Out;
    expect(out.errors.map((e) => e.path)).toEqual(['/__proto__/polluted']);
    expect((await sov({ schema, target }, 'lenient')) as Out).toMatchObject({ valid: false });
    expect(JSON.stringify([schema, target])).toBe(before);
    expect(Object.hasOwn(schema.properties, '__proto__')).toBe(true);
  });

  it('mode schema checks the subschema of a __proto__ property', async () => {
    const bad = (await sov({ schema: '{"properties":{"__proto__":{"type":5}}}' }, 'schema')) as Out;
    expect(bad.valid).toBe(false);
    expect(bad.errors[0]?.path).toBe('/properties/__proto__/type');
    const good = '{"properties":{"__proto__":{"type":"number"}},"dependencies":{"__proto__":["a"]}}';
    expect(((await sov({ schema: good }, 'schema')) as Out).valid).toBe(true);
  });
});
