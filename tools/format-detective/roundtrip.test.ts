/**
 * Round-trip oracle: for every pair of formats whose data models share a shape, converting
 * A → B → A must give back the same data (compared after parsing, so layout may differ).
 */
import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { decode } from './codec.js';
import { convert } from './test-helpers.js';
import type { Format } from './tool.js';

/** Arrays of flat records: what CSV, TSV and NDJSON share with JSON and YAML. */
const TABLE = [
  { id: 1, name: 'Zoë 🎉', active: true, score: 9.5, note: 'says "hi", then\nleaves' },
  { id: 2, name: 'Bob', active: false, score: -7, note: 'tab\there; semi;colon' },
  { id: 3, name: '東京', active: true, score: 1e21, note: 'x' },
];

/** One root table of scalars, scalar lists and sub-tables: what TOML, INI and XML share. */
const CONFIG = {
  config: {
    name: 'demo app',
    port: 8080,
    debug: true,
    ratio: 0.25,
    tags: ['alpha', 'β-test', 'a < b & c'],
    database: { host: 'db.local', user: 'Zoë', pool: 5, comment: 'semi; colon # hash' },
    cache: { enabled: false, nodes: ['n1', 'n2'] },
  },
};

/** Everything JSON can hold: only JSON and YAML carry all of it. */
const RICH = {
  'a/b': { '~tilde': [1, [2, [3, null]], { deep: { deeper: ['x'] } }] },
  empty: { list: [], map: {} },
  looksLikeNumber: '0123',
  looksLikeBool: 'true',
  multiline: 'line 1\nline 2\n',
  키: 'ünïcödé 🎉',
  nothing: null,
  float: -0.5,
};

const FAMILIES: { name: string; data: unknown; formats: Format[] }[] = [
  { name: 'table', data: TABLE, formats: ['json', 'yaml', 'ndjson', 'csv', 'tsv'] },
  { name: 'config', data: CONFIG, formats: ['json', 'yaml', 'toml', 'ini', 'xml'] },
  { name: 'rich', data: RICH, formats: ['json', 'yaml'] },
  { name: 'values per line', data: [1, 'two', null, [3], { four: 4 }], formats: ['json', 'yaml', 'ndjson'] },
];

describe('format-detective round-trips A → B → A', () => {
  for (const family of FAMILIES) {
    for (const a of family.formats) {
      for (const b of family.formats) {
        if (a === b) continue;
        it(`${family.name}: ${a} → ${b} → ${a}`, async () => {
          const textA = (await convert(JSON.stringify(family.data), a, 'json')).output;
          expect(decode(a, textA).value).toEqual(family.data);
          const textB = (await convert(textA, b, a)).output;
          const back = await convert(textB, a, b);
          expect(back.from).toBe(b);
          expect(decode(a, back.output).value).toEqual(family.data);
        });
      }
    }
  }

  it('detects each family member without `from`', async () => {
    for (const family of FAMILIES.slice(0, 2)) {
      for (const format of family.formats) {
        const text = (await convert(JSON.stringify(family.data), format, 'json')).output;
        const result = await convert(text, 'json');
        expect([format, result.from]).toEqual([format, format]);
        expect(result.detected).toBe(true);
        expect(JSON.parse(result.output)).toEqual(family.data);
      }
    }
  });
});

describe('format-detective refuses conversions the target cannot hold', () => {
  const cases: [string, Format, Format, RegExp][] = [
    ['a,b\n1,2\n', 'csv', 'toml', /TOML needs a top-level table .* an array/],
    ['a,b\n1,2\n', 'csv', 'ini', /INI needs a top-level object/],
    ['<r><a>1</a></r>', 'xml', 'csv', /CSV needs an array of flat objects.*wrap a single record/],
    ['<r><a>1</a></r>', 'xml', 'ndjson', /NDJSON needs a top-level array/],
    ['[{"a": {"b": 1}}]', 'json', 'tsv', /TSV cells must be scalars; \/0\/a is an object/],
    ['[1, 2]', 'json', 'csv', /rows must be objects; \/0 is a number/],
    ['{"a": {"b": null}}', 'json', 'toml', /TOML has no null; the value at \/a\/b is null/],
    ['"text"', 'json', 'ini', /INI needs a top-level object.* a string/],
    ['{"list": [{"x": 1}]}', 'json', 'ini', /INI arrays hold scalars only; \/list\/0 is an object/],
    ['{"a b": 1}', 'json', 'xml', /"a b" .* not a valid XML name/],
    ['{"m": [[1, 2]]}', 'json', 'xml', /array directly inside an array/],
  ];
  for (const [input, from, to, message] of cases) {
    it(`${from} → ${to}: ${input.slice(0, 24)}`, async () => {
      await expectToolError(convert(input, to, from), 'INVALID_INPUT', message);
    });
  }
});
