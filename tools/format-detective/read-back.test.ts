/**
 * Conversions that used to return text which reads back as other data (or is not well-formed
 * at all) without a word: each is now refused, or named in a warning by the read-back check.
 */
import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { decode } from './codec.js';
import { differences } from './read-back.js';
import { convert } from './test-helpers.js';

const json = (value: unknown) => JSON.stringify(value);

describe('format-detective refuses output that would be broken', () => {
  it('refuses characters XML 1.0 cannot hold instead of writing an ill-formed document', async () => {
    for (const [text, code] of [
      ['x\u0001y', '0001'],
      ['\u000b', '000B'],
      ['a\ud800', 'D800'],
      ['\uffff', 'FFFF'],
    ]) {
      const err = await expectToolError(convert(json({ r: { a: text } }), 'xml', 'json'), 'INVALID_INPUT');
      expect(err.message).toBe(`the text at /r/a holds U+${code}, which XML 1.0 cannot represent`);
    }
    const attr = await expectToolError(
      convert(json({ r: { '@b': 'x\u0000' } }), 'xml', 'json'),
      'INVALID_INPUT',
    );
    expect(attr.message).toMatch(/^the text at \/r\/@b holds U\+0000/);
    // Tabs, newlines, CR and paired surrogates (emoji) are fine.
    const ok = await convert(json({ r: { a: 'tab\there\r\nline 😀' } }), 'xml', 'json');
    expect(ok.warnings).toEqual([]);
  });

  it('refuses element names the XML reader rejects', async () => {
    const err = await expectToolError(
      convert(json({ r: { constructor: 1 } }), 'xml', 'json'),
      'INVALID_INPUT',
    );
    expect(err.message).toMatch(/^the key "constructor" at \/r\/constructor cannot be an XML element/);
    // As an attribute it is fine.
    expect((await convert(json({ r: { '@constructor': 1 } }), 'xml', 'json')).warnings).toEqual([]);
  });

  it('refuses INI keys its reader would split or drop', async () => {
    const cases: [unknown, RegExp][] = [
      [{ 'a=b': 1 }, /^the key "a=b" at \/a=b cannot be written in INI: a key cannot hold "="$/],
      [{ s: { '=': 1 } }, /at \/s\/= cannot be written in INI/],
      [{ 'x]y': { k: 1 } }, /a section name cannot hold "\]"/],
      [JSON.parse('{"__proto__": {"k": 1}}'), /INI readers drop the name __proto__/],
    ];
    for (const [data, message] of cases) {
      await expectToolError(convert(json(data), 'ini', 'json'), 'INVALID_INPUT', message);
    }
  });
});

describe('format-detective reads input as it is', () => {
  it('keeps XML element names such as toString (the parser renamed them "__toString")', async () => {
    const out = await convert('<r><toString>1</toString><valueOf a="x">2</valueOf></r>', 'json', 'xml');
    expect(JSON.parse(out.output)).toEqual({ r: { toString: 1, valueOf: { '#text': 2, '@a': 'x' } } });
  });

  it('warns when an INI __proto__ key or section is dropped by the reader', () => {
    const read = decode('ini', '[__proto__]\nx = 1\n[a]\n__proto__ = 2\nb = 3\n');
    expect(read.value).toEqual({ a: { b: 3 } });
    expect(read.warnings).toEqual([expect.stringMatching(/named __proto__ was dropped/)]);
    expect(decode('ini', '"__proto__"[] = 1\n').warnings).toHaveLength(1);
    // Kept by the reader, so no warning: a value, and __proto__ as part of a dotted section.
    expect(decode('ini', 'name = __proto__\n').warnings).toEqual([]);
    const dotted = decode('ini', '[__proto__.x]\ny = 1\n');
    expect([dotted.value, dotted.warnings]).toEqual([{ '__proto__.x': { y: 1 } }, []]);
  });
});

describe('format-detective names what does not read back', () => {
  it('warns about strings a text-only format reads back as other types', async () => {
    const out = await convert(json([{ zip: '12345', flag: 'true', note: '' }]), 'csv', 'json');
    expect(out.output).toBe('zip,flag,note\n12345,true,\n');
    expect(out.warnings).toEqual([
      'reading this CSV back does not give the same data: /0/zip: "12345" reads back as 12345; /0/flag: "true" reads back as true; /0/note: "" reads back as null',
    ]);
  });

  it('warns about shapes XML and CSV cannot keep', async () => {
    const xml = await convert(json({ r: { item: [1], pad: '  x  ' } }), 'xml', 'json');
    expect(xml.warnings).toEqual([
      'reading this XML back does not give the same data: /r/item: an array reads back as 1; /r/pad: "  x  " reads back as "x"',
    ]);
    const csv = await convert(json([{}, {}]), 'csv', 'json');
    expect(csv.warnings).toEqual([
      'reading this CSV back does not give the same data: (root): 2 item(s) read back as 0',
    ]);
  });

  it('says nothing when the data reads back the same', async () => {
    const data = { server: { host: 'example.com', port: 8080, tags: ['a', 'b'], on: true } };
    for (const to of ['toml', 'ini', 'xml', 'yaml'] as const) {
      expect((await convert(json(data), to, 'json')).warnings).toEqual([]);
    }
  });

  it('lists at most three differences', () => {
    expect(differences([1, 2, 3, 4, 5], ['1', '2', '3', '4', '5'])).toHaveLength(4);
    expect(differences({ a: 1, b: [1, { c: 0 }] }, { b: [1, { c: -0 }], a: 1 })).toEqual([]);
  });
});

describe('format-detective and lone surrogates', () => {
  it('refuses a TOML key with a lone surrogate (was an internal error)', async () => {
    const err = await expectToolError(convert('{"a": {"\\udc00x": 1}}', 'toml', 'json'), 'INVALID_INPUT');
    expect(err.message).toBe('the data cannot be written as TOML: key contains illegal lone surrogates');
  });
});
