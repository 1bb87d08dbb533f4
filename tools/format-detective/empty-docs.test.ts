/**
 * A document that holds no data is still a document: a TOML text of comments or empty
 * tables, an INI text of comments, a YAML stream of comments or empty documents. They are
 * read as their parsers read them ({}, null...). Only a text with nothing in it (whitespace,
 * a lone BOM) is "input is empty"; a zero-length one is refused by the input schema.
 */
import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { convert, detect } from './test-helpers.js';

const formats = async (input: string) => (await detect(input)).candidates.map((c) => c.format);
const read = async (input: string, from: string) => JSON.parse((await convert(input, 'json', from)).output);

describe('format-detective empty documents', () => {
  it('refuses a text with nothing in it, whatever the format', async () => {
    for (const input of ['', ' ', '\n\n', ' \t\r\n', '\uFEFF', '\uFEFF \n']) {
      const message = input === '' ? /^input must NOT have fewer than 1 characters$/ : /^input is empty$/;
      await expectToolError(detect(input), 'INVALID_INPUT', message);
      for (const from of [undefined, 'toml', 'yaml', 'ini', 'json']) {
        await expectToolError(convert(input, 'json', from), 'INVALID_INPUT', message);
      }
    }
  });

  it('reads a text of Unicode spaces as the YAML string it is (it was "input is empty")', async () => {
    for (const input of ['\u00a0', '\u2028', '\u3000\n']) {
      const text = input.replace(/\n$/, '');
      expect(await read(input, 'yaml')).toBe(text);
      const auto = await convert(input, 'json');
      expect([auto.from, JSON.parse(auto.output)]).toEqual(['yaml', text]);
    }
    // Nor is it blank in NDJSON, whose lines are JSON texts (it was an empty array at 0.95).
    await expectToolError(convert('{"a":1}\n\u00a0\n', 'json', 'ndjson'), 'INVALID_INPUT', /line 2/);
    expect(await formats('\u00a0')).not.toContain('ndjson');
  });

  it('reads a TOML document of comments or empty tables as its tables', async () => {
    expect(await read('# nothing here\n', 'toml')).toEqual({});
    expect(await read('# a\r\n\r\n# b\r\n', 'toml')).toEqual({});
    expect(await read('[a]\n', 'toml')).toEqual({ a: {} });
    expect(await read('# x\n[a]\n[b.c]\n[[d]]\n', 'toml')).toEqual({ a: {}, b: { c: {} }, d: [{}] });
    expect((await convert('[a]\n', 'json')).from).toBe('toml');
  });

  it('lists TOML and INI among the formats a text of comments is', async () => {
    // An empty YAML stream (null) stays first; TOML and INI read the same text as {}.
    expect(await formats('# nothing here\n')).toEqual(['yaml', 'toml', 'ini']);
    expect(await formats('# a\n\n# b\n')).toEqual(['yaml', 'toml', 'ini']);
    expect(await formats('; an INI comment\n')).toContain('ini');
    expect(await read('; an INI comment\n', 'ini')).toEqual({});
  });

  it('reads a YAML stream of comments or empty documents as null', async () => {
    for (const input of ['# nothing\n', '---\n', '--- ~\n', '---\n...\n', '--- # c\n', '%YAML 1.2\n---\n']) {
      expect(await read(input, 'yaml'), input).toBeNull();
      expect((await detect(input)).format, input).toBe('yaml');
      const auto = await convert(input, 'yaml');
      expect([auto.from, auto.output], input).toEqual(['yaml', 'null\n']);
    }
    expect(await read('---\n---\n', 'yaml')).toEqual([null, null]);
  });

  it('writes empty data in every format that can hold it', async () => {
    expect((await convert('{}', 'yaml', 'json')).output).toBe('{}\n');
    expect((await convert('null', 'yaml', 'json')).output).toBe('null\n');
    expect((await convert('{"a": {}}', 'toml', 'json')).output).toBe('[a]\n');
    const table = await convert('{}', 'toml', 'json');
    expect([table.output.trim(), table.warnings]).toEqual(['', []]);
  });
});
