/**
 * The openai-strict lint and mode fix against each other (SKILL.md, "Mode fix"): every schema
 * the lint accepts, fix leaves unchanged; every change fix makes is where the lint reports a
 * problem; a schema fix can fix comes out accepted by the lint, and fixing it again changes
 * nothing. Named cases, then seeded random schemas built from the rules' own parts.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { seededRandom, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

type Schema = Record<string, unknown>;
interface Issue {
  path: string;
  keyword: string;
}
interface Answer {
  valid: boolean;
  errors: Issue[];
  fixed?: unknown;
  changes?: { path: string; keyword: string }[];
  changeCount?: number;
}
const sov = toolRunner(tool, run);
const lint = async (schema: unknown) =>
  (await sov({ schema, provider: 'openai-strict' }, 'schema')) as Answer;
const fix = async (schema: unknown) => (await sov({ schema }, 'fix')) as Answer;

/** Two pointers on one line of descent: the same place, or one inside the other. */
const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** The agreement itself; `fixable`: the fix result must pass the lint. */
async function agree(schema: unknown, fixable: boolean): Promise<Answer> {
  const checked = await lint(schema);
  const fixed = await fix(schema);
  const label = JSON.stringify(schema).slice(0, 300);
  if (fixed.fixed === undefined) return fixed; // not valid JSON Schema: fix answers its errors only
  if (checked.valid) {
    expect(fixed.changes, label).toEqual([]);
    expect(fixed.fixed, label).toEqual(schema);
  }
  // Nothing changes without a word.
  if (!isDeepStrictEqual(fixed.fixed, schema)) expect(fixed.changes?.length, label).toBeGreaterThan(0);
  for (const change of fixed.changes ?? []) {
    const reported = checked.errors.some((e) => related(e.path, change.path));
    expect(reported, `${label}: ${change.path} ${change.keyword} changed, not reported`).toBe(true);
  }
  if (fixable) expect(fixed.errors, label).toEqual([]);
  const again = await fix(fixed.fixed);
  expect(again.changes, label).toEqual([]);
  return fixed;
}

const object = (properties: Schema, extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

describe('lint and fix agree: required and properties as OpenAI strict mode reads them', () => {
  it('a required name properties does not declare is reported, and fix removes it', async () => {
    const schema = { ...object({ a: { type: 'string' } }), required: ['a', 'ghost'] };
    expect((await lint(schema)).errors).toEqual([
      expect.objectContaining({ path: '/required/1', keyword: 'required' }),
    ]);
    const fixed = await agree(schema, true);
    expect(fixed.fixed).toEqual(object({ a: { type: 'string' } }));
    // A complete list in another order is what strict mode asks: accepted and kept.
    await agree({ ...object({ a: { type: 'string' }, b: { type: 'string' } }), required: ['b', 'a'] }, true);
  });

  it.each([
    ['an object without properties', { type: 'object', additionalProperties: false }, [' properties']],
    [
      'required without properties',
      { type: 'object', additionalProperties: false, required: ['x'] },
      [' properties', '/required/0 required'],
    ],
    [
      'empty properties without required',
      { type: 'object', properties: {}, additionalProperties: false },
      [' required'],
    ],
    ['a root type ["object"]', { ...object({ a: { type: 'string' } }), type: ['object'] }, ['/type type']],
  ])('%s: reported, and fixed into what the lint accepts', async (_name, schema, reported) => {
    expect((await lint(schema)).errors.map((e) => `${e.path} ${e.keyword}`)).toEqual(reported);
    await agree(schema, true);
  });

  it.each([
    ['a one-element type list', object({ a: { type: ['string'] } })],
    ['a null default', object({ a: { type: ['string', 'null'], default: null } })],
  ])('%s: accepted, and left as written', async (_name, schema) => {
    expect((await lint(schema)).valid).toBe(true);
    await agree(schema, true);
  });

  it('a one-branch allOf is merged without losing the properties both sides declare', async () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
      allOf: [{ properties: { b: { type: 'string' } }, required: ['b'] }],
    };
    const fixed = await agree(schema, true);
    expect(fixed.fixed).toEqual(object({ a: { type: 'string' }, b: { type: 'string' } }));
  });
});

/** Objects nested `levels` deep through a chain of $defs (the root is level 1). */
function chain(levels: number): Schema {
  const $defs: Schema = {};
  for (let i = 1; i < levels; i++) {
    const last = i === levels - 1;
    $defs[`D${i}`] = object(last ? { v: { type: 'string' } } : { next: { $ref: `#/$defs/D${i + 1}` } });
  }
  return { ...object({ start: { $ref: '#/$defs/D1' } }), $defs };
}

describe('the nesting limit (10 levels of objects) is counted through $refs', () => {
  it('a 30-level $ref chain is reported where it starts; 10 levels and recursion pass', async () => {
    const deep = await lint(chain(30));
    expect(deep.errors).toEqual([
      expect.objectContaining({
        path: '/properties/start/$ref',
        keyword: 'limit',
        message:
          "objects are nested 30 levels deep through this $ref (1 above it, 29 in '#/$defs/D1'); at most 10",
      }),
    ]);
    expect((await lint(chain(10))).valid).toBe(true);
    expect((await lint(chain(11))).errors.map((e) => e.keyword)).toEqual(['limit']);
    // fix cannot flatten a chain: the limit stays in its answer, and nothing else is changed.
    const fixed = await fix(chain(30));
    expect(fixed).toMatchObject({ valid: false, changes: [], errors: [{ keyword: 'limit' }] });
    // Recursion is allowed: a $ref back to a schema on the way is not followed again.
    const tree = object({ children: { type: 'array', items: { $ref: '#' } } });
    const mutual = {
      ...object({ a: { $ref: '#/$defs/A' } }),
      $defs: {
        A: object({ b: { anyOf: [{ $ref: '#/$defs/B' }, { type: 'null' }] } }),
        B: object({ a: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] } }),
      },
    };
    expect((await lint(tree)).valid).toBe(true);
    expect((await lint(mutual)).valid).toBe(true);
  });

  it('a deep chain hanging off a recursion is counted, and a dense recursion is searched within bounds', async () => {
    const long = chain(12).$defs as Schema;
    const hanging = {
      ...object({ a: { $ref: '#/$defs/A' } }),
      $defs: {
        ...long,
        A: object({ b: { anyOf: [{ $ref: '#/$defs/B' }, { type: 'null' }] } }),
        B: object({ a: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] }, c: { $ref: '#/$defs/D1' } }),
      },
    };
    expect((await lint(hanging)).errors).toEqual([
      expect.objectContaining({ path: '/properties/a/$ref', keyword: 'limit' }),
    ]);
    // 30 definitions each referring to all 30: a way through all of them is 31 levels deep.
    const $defs: Schema = {};
    for (let i = 0; i < 30; i++) {
      const refs: Schema = {};
      for (let j = 0; j < 30; j++) refs[`p${j}`] = { anyOf: [{ $ref: `#/$defs/K${j}` }, { type: 'null' }] };
      $defs[`K${i}`] = object(refs);
    }
    const dense = await lint({ ...object({ k: { $ref: '#/$defs/K0' } }), $defs });
    expect(dense.errors).toEqual([expect.objectContaining({ path: '/properties/k/$ref', keyword: 'limit' })]);
  });
});

/** A random leaf or small subschema, sometimes carrying what fix changes or the lint accepts as is. */
function randomSchema(rnd: () => number, depth: number, defs: string[]): Schema {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
  const r = rnd();
  let s: Schema;
  if (depth < 3 && r < 0.25) s = randomObject(rnd, depth + 1, defs);
  else if (depth < 3 && r < 0.35) s = { type: 'array', items: randomSchema(rnd, depth + 1, defs) };
  else if (r < 0.42 && defs.length > 0) s = { $ref: `#/$defs/${pick(defs)}` };
  else if (r < 0.5) s = { anyOf: [randomSchema(rnd, depth + 1, defs), { type: 'null' }] };
  else if (r < 0.55) s = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
  else if (r < 0.6) s = { allOf: [{ type: 'string', minLength: 1 }] };
  else if (r < 0.65)
    s = {
      enum: pick([
        ['a', 'b'],
        ['x', null],
      ]),
    };
  else s = { type: pick(['string', 'number', 'integer', 'boolean', ['string'], ['string', 'null']]) };
  const extra = rnd();
  if (extra < 0.1) s.default = null;
  else if (extra < 0.15 && s.type === 'string') s.format = pick(['date', 'uri', 'email']);
  else if (extra < 0.2 && s.type === 'array') s.uniqueItems = true;
  else if (extra < 0.25) s.description = 'd';
  return s;
}

/** A random object: properties present or not, required complete, partial, reordered or with extra names. */
function randomObject(rnd: () => number, depth: number, defs: string[]): Schema {
  const names = ['a', 'b', 'c', 'd'].slice(0, Math.floor(rnd() * 4) + (depth === 1 ? 1 : 0));
  const s: Schema = { type: depth === 1 || rnd() < 0.8 ? 'object' : ['object'] };
  if (depth === 1) s.type = 'object';
  if (names.length > 0 || rnd() < 0.5) {
    s.properties = Object.fromEntries(names.map((n) => [n, randomSchema(rnd, depth, defs)]));
  }
  const r = rnd();
  if (r < 0.6) s.required = [...names];
  else if (r < 0.7) s.required = names.slice(1);
  else if (r < 0.8) s.required = [...names].reverse();
  else if (r < 0.9) s.required = [...names, 'ghost'];
  const a = rnd();
  if (a < 0.8) s.additionalProperties = false;
  else if (a < 0.9) s.additionalProperties = true;
  else if (a < 0.95) s.additionalProperties = { type: 'string' };
  if (rnd() < 0.05) s.minProperties = 1;
  return s;
}

function randomRoot(rnd: () => number): Schema {
  const defs = rnd() < 0.4 ? ['P', 'Q'] : [];
  const root = randomObject(rnd, 1, defs);
  if (defs.length > 0) root.$defs = { P: randomObject(rnd, 2, []), Q: { type: 'string' } };
  return root;
}

describe('lint and fix agree on seeded random schemas', () => {
  it('300 schemas: accepted ones unchanged, every change reported, every result accepted and stable', async () => {
    const rnd = seededRandom(37);
    let accepted = 0;
    let changed = 0;
    for (let i = 0; i < 300; i++) {
      const schema = randomRoot(rnd);
      const fixed = await agree(schema, true);
      if (isDeepStrictEqual(fixed.fixed, schema)) accepted++;
      else changed++;
    }
    // Both sides of the agreement are exercised many times.
    expect(accepted).toBeGreaterThan(20);
    expect(changed).toBeGreaterThan(100);
  });
});
