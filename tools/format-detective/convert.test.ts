import { describe, expect, it } from 'vitest';
import { convert } from './test-helpers.js';

describe('format-detective convert', () => {
  it('writes CSV with the union of columns in first-seen order', async () => {
    const result = await convert('[{"a":1,"b":"x"},{"a":2,"c":true}]', 'csv');
    expect(result).toMatchObject({ from: 'json', to: 'csv', detected: true, confidence: 1 });
    expect(result.output).toBe('a,b,c\n1,x,\n2,,true\n');
  });

  it('types CSV cells: numbers, booleans, empty → null, the rest stays text', async () => {
    const result = await convert(
      'zip,n,f,ok,empty,big\n007,42,1.5,false,,12345678901234567890\n',
      'json',
      'csv',
    );
    expect(JSON.parse(result.output)).toEqual([
      { zip: '007', n: 42, f: 1.5, ok: false, empty: null, big: '12345678901234567890' },
    ]);
  });

  it('reads XML attributes, repeated elements and mixed text', async () => {
    const result = await convert('<book id="7">Intro<tag>sf</tag><tag>classic</tag></book>', 'yaml');
    expect(result.output).toBe('book:\n  tag:\n    - sf\n    - classic\n  "#text": Intro\n  "@id": 7\n');
  });

  it('writes "@" keys as XML attributes and wraps data without a single root', async () => {
    const single = await convert('{"user": {"@id": 3, "name": "Zoë"}}', 'xml');
    expect(single.output).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<user id="3">\n  <name>Zoë</name>\n</user>\n',
    );
    expect(single.warnings).toEqual([]);
    const wrapped = await convert('[1, 2]', 'xml');
    expect(wrapped.output).toContain('<root>\n  <item>1</item>\n  <item>2</item>\n</root>');
    expect(wrapped.warnings[0]).toMatch(/wrapped in <root>/);
  });

  it('converts YAML to TOML and INI', async () => {
    const yaml = 'a: 1\nb: [1, 2]\nc: {d: x}\n';
    expect((await convert(yaml, 'toml')).output).toBe('a = 1\nb = [ 1, 2 ]\n\n[c]\nd = "x"\n');
    expect((await convert(yaml, 'ini')).output).toBe('a = 1\nb[] = 1\nb[] = 2\n\n[c]\nd = x\n');
  });

  it('turns TOML dates into ISO strings', async () => {
    const result = await convert('day = 1979-05-27\nat = 1979-05-27T07:32:00Z\n', 'json', 'toml');
    expect(JSON.parse(result.output)).toEqual({ day: '1979-05-27', at: '1979-05-27T07:32:00.000Z' });
  });

  it('reads several YAML documents as one array, with a warning', async () => {
    const result = await convert('---\na: 1\n---\nb: 2\n', 'ndjson');
    expect(result.output).toBe('{"a":1}\n{"b":2}\n');
    expect(result.warnings).toEqual(['the 2 YAML documents were read as one array']);
  });

  it('uses the YAML core schema: no custom tags, no binary, no 1.1 booleans', async () => {
    const result = await convert('x: !foo bar\ny: !!binary aGk=\nz: yes\nd: 2001-12-14\n', 'json', 'yaml');
    expect(JSON.parse(result.output)).toEqual({ x: 'bar', y: 'aGk=', z: 'yes', d: '2001-12-14' });
    expect(result.warnings.some((w) => w.includes('!foo'))).toBe(true);
  });

  it('keeps a "__proto__" key as plain data', async () => {
    const result = await convert('{"__proto__": {"polluted": true}}', 'yaml');
    expect(result.output).toBe('__proto__:\n  polluted: true\n');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reformats when from and to are the same', async () => {
    expect((await convert('{"a":[1,2]}', 'json', 'json')).output).toBe(
      '{\n  "a": [\n    1,\n    2\n  ]\n}\n',
    );
  });

  it('converts an empty array to empty CSV and NDJSON', async () => {
    expect((await convert('[]', 'csv')).output).toBe('');
    expect((await convert('[]', 'ndjson')).output).toBe('');
  });
});

describe('JSON numbers a double cannot hold', () => {
  it.each([
    [
      '{"a":123456789012345678901234567890}',
      'toml',
      '123456789012345678901234567890',
      '1.2345678901234568e+29',
    ],
    ['{"p":0.1234567890123456789}', 'yaml', '0.1234567890123456789', '0.12345678901234568'],
    ['{"id":9007199254740993}\n{"id":1}\n', 'json', '9007199254740993', '9007199254740992'],
  ])('%s → %s says the number was rounded', async (text, to, token, written) => {
    const result = await convert(text, to);
    expect(result.warnings).toContain(
      `the number ${token} has no exact double form: it is written as ${written} (send such values as strings)`,
    );
  });

  it('says nothing when every number is exact, however it is written', async () => {
    const result = await convert('{"a":1.0,"b":1e2,"c":-0.5,"d":"123456789012345678901234567890"}', 'toml');
    expect(result.warnings).toEqual([]);
  });
});
