import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { convert, detect, formatDetective } from './test-helpers.js';
import { FORMATS, MAX_INPUT_BYTES } from './tool.js';

const SAMPLES: Record<string, string> = {
  json: '{\n  "name": "Ada",\n  "langs": ["en", "fr"]\n}',
  ndjson: '{"id":1,"ok":true}\n{"id":2,"ok":false}\n',
  yaml: 'name: Ada\nlangs:\n  - en\n  - fr\nnested:\n  a: 1\n',
  toml: 'title = "demo"\n\n[server]\nport = 8080\nhosts = ["a", "b"]\n',
  csv: 'id,name,city\n1,Ada,London\n2,Bob,"Paris, FR"\n',
  tsv: 'id\tname\tcity\n1\tAda\tLondon\n2\tBob\tParis\n',
  xml: '<?xml version="1.0"?>\n<book id="7"><title>Dune</title><tag>sf</tag><tag>classic</tag></book>',
  ini: '; settings\n[database]\nhost = db.local\nuser = admin\n\n[cache]\nenabled = true\n',
};

describe('format-detective detect', () => {
  for (const [format, text] of Object.entries(SAMPLES)) {
    it(`recognises ${format}`, async () => {
      const result = await detect(text);
      expect(result.format).toBe(format);
      expect(result.confidence).toBeGreaterThanOrEqual(0.7);
      expect(result.candidates[0]).toEqual({ format, confidence: result.confidence });
    });
  }

  it('sorts candidates by confidence and keeps the runner-ups', async () => {
    const result = await detect('{"a": [1, 2]}');
    expect(result.format).toBe('json');
    expect(result.confidence).toBe(1);
    const formats = result.candidates.map((c) => c.format);
    expect(formats).toContain('yaml');
    const scores = result.candidates.map((c) => c.confidence);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    for (const c of result.candidates) expect(c.confidence).toBeGreaterThan(0);
  });

  it('lets JSON win over YAML when the text is both', async () => {
    const result = await detect('[{"a": 1}, {"a": 2}]');
    expect(result.format).toBe('json');
    const yaml = result.candidates.find((c) => c.format === 'yaml');
    expect(yaml?.confidence).toBeLessThan(result.confidence);
  });

  it('gives a plain word to YAML with a low confidence', async () => {
    const result = await detect('hello');
    expect(result.format).toBe('yaml');
    expect(result.confidence).toBeLessThan(0.5);
    expect(result.candidates.map((c) => c.format)).not.toContain('json');
  });

  it('reads a JSON scalar as JSON', async () => {
    expect((await detect('42')).format).toBe('json');
    expect((await detect('"quoted"')).format).toBe('json');
    expect((await detect('true')).confidence).toBeLessThan(1);
  });

  it('prefers TOML to INI when both parse, and INI when values are bare words', async () => {
    const both = await detect('a = 1\nb = 2\n');
    expect(both.format).toBe('toml');
    expect(both.candidates.map((c) => c.format)).toContain('ini');
    expect((await detect('[s]\nname = John Smith\n')).format).toBe('ini');
  });

  it('handles a BOM and Unicode', async () => {
    expect((await detect('\uFEFF{"名前": "太郎 🎉"}')).format).toBe('json');
    expect((await detect('名前: 太郎\n都市: 東京\n')).format).toBe('yaml');
  });

  it('works near the size limit', async () => {
    const rows = Array.from({ length: 12000 }, (_, i) => ({ id: i, name: `user-${i}`, ok: i % 2 === 0 }));
    const text = JSON.stringify(rows);
    expect(Buffer.byteLength(text)).toBeGreaterThan(400_000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(524_288);
    expect((await detect(text)).format).toBe('json');
    const csv = await convert(text, 'csv');
    expect(csv.output.split('\n')[1]).toBe('0,user-0,true');
    expect(csv.output.trimEnd().split('\n')).toHaveLength(12001);
  });
});

describe('format-detective input errors', () => {
  it('refuses empty, non-string and oversized input', async () => {
    await expectToolError(detect('  \n'), 'INVALID_INPUT', 'input is empty');
    // (A number is no wrong type: the schema reads 42 as the text "42".)
    await expectToolError(detect([42]), 'INVALID_INPUT', /string/);
    // The schema bounds the characters; the tool bounds the UTF-8 bytes of multi-byte text.
    const tooLong = 'a'.repeat(MAX_INPUT_BYTES + 1);
    await expectToolError(
      detect(tooLong),
      'INVALID_INPUT',
      `input must NOT have more than ${MAX_INPUT_BYTES} characters`,
    );
    await expectToolError(detect('é'.repeat(300_000)), 'INVALID_INPUT', /larger than/);
  });

  it('refuses an unknown mode', async () => {
    await expectToolError(
      formatDetective({ input: 'x' }, 'explain'),
      'UNSUPPORTED_OPTION',
      'detect, convert',
    );
  });

  it('refuses unknown formats with UNSUPPORTED_OPTION listing the formats', async () => {
    await expectToolError(
      convert('{}', 'xlsx'),
      'UNSUPPORTED_OPTION',
      `to is not supported; supported: ${FORMATS.join(', ')}`,
    );
    await expectToolError(convert('{}', 'json', 'JSON5'), 'UNSUPPORTED_OPTION', /^from is not supported/);
  });

  it('requires `to` in convert mode', async () => {
    await expectToolError(convert('{"a":1}'), 'INVALID_INPUT', /^to /);
  });

  it('reports a text that does not match the given `from`', async () => {
    await expectToolError(convert('a: 1', 'yaml', 'json'), 'INVALID_INPUT', /not valid JSON/);
    await expectToolError(convert('a,b\n1,2,3\n', 'json', 'csv'), 'INVALID_INPUT', /row 2 has 3 fields/);
    await expectToolError(convert('a,a\n1,2\n', 'json', 'csv'), 'INVALID_INPUT', /"a" twice/);
    await expectToolError(convert('<a><b></a>', 'json', 'xml'), 'INVALID_INPUT', /not valid XML/);
    await expectToolError(convert('x = [', 'json', 'toml'), 'INVALID_INPUT', /not valid TOML/);
    await expectToolError(convert('{"a":1}\nnope\n', 'json', 'ndjson'), 'INVALID_INPUT', /line 2/);
  });

  it('refuses YAML with a duplicate key, and reads large mappings', async () => {
    await expectToolError(
      convert('a: 1\nb: 2\na: 3\n', 'json', 'yaml'),
      'INVALID_INPUT',
      /"a" appears twice/,
    );
    const big = Array.from({ length: 30_000 }, (_, i) => `key${i}: ${i}`).join('\n');
    const result = await convert(big, 'json');
    expect(result.from).toBe('yaml');
    expect(Object.keys(JSON.parse(result.output))).toHaveLength(30_000);
  });

  it('refuses YAML values JSON cannot hold', async () => {
    await expectToolError(convert('a: .inf', 'json', 'yaml'), 'INVALID_INPUT', /\/a is Infinity/);
  });
});
