import { describe, expect, it } from 'vitest';
import run from './run.js';
import { convert, failure } from './test-helpers.js';
import { FORMATS } from './tool.js';

interface Detected {
  format: string | null;
  confidence: number;
  candidates: { format: string; confidence: number }[];
}
const detect = async (input: unknown) => (await run({ input }, 'detect')) as Detected;

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
    expect((await failure(detect('  \n'))).code).toBe('INVALID_INPUT');
    expect((await failure(detect(42))).message).toMatch(/string/);
    expect((await failure(detect('a'.repeat(524_289)))).message).toMatch(/larger than/);
  });

  it('refuses an unknown mode', async () => {
    const err = await failure(Promise.resolve().then(() => run({ input: 'x' }, 'explain')));
    expect(err.code).toBe('UNSUPPORTED_OPTION');
    expect(err.message).toContain('detect, convert');
  });

  it('refuses unknown formats with UNSUPPORTED_OPTION listing the formats', async () => {
    const to = await failure(convert('{}', 'xlsx'));
    expect(to.code).toBe('UNSUPPORTED_OPTION');
    expect(to.message).toContain(FORMATS.join(', '));
    const from = await failure(convert('{}', 'json', 'JSON5'));
    expect(from.code).toBe('UNSUPPORTED_OPTION');
    expect(from.message).toMatch(/source format 'JSON5'/);
  });

  it('requires `to` in convert mode', async () => {
    const err = await failure(convert('{"a":1}'));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/^to /);
  });

  it('reports a text that does not match the given `from`', async () => {
    const err = await failure(convert('a: 1', 'yaml', 'json'));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/not valid JSON/);
    expect((await failure(convert('a,b\n1,2,3\n', 'json', 'csv'))).message).toMatch(/row 2 has 3 fields/);
    expect((await failure(convert('a,a\n1,2\n', 'json', 'csv'))).message).toMatch(/"a" twice/);
    expect((await failure(convert('<a><b></a>', 'json', 'xml'))).message).toMatch(/not valid XML/);
    expect((await failure(convert('x = [', 'json', 'toml'))).message).toMatch(/not valid TOML/);
    expect((await failure(convert('{"a":1}\nnope\n', 'json', 'ndjson'))).message).toMatch(/line 2/);
  });

  it('refuses YAML with a duplicate key, and reads large mappings', async () => {
    const err = await failure(convert('a: 1\nb: 2\na: 3\n', 'json', 'yaml'));
    expect(err.message).toMatch(/"a" appears twice/);
    const big = Array.from({ length: 30_000 }, (_, i) => `key${i}: ${i}`).join('\n');
    const result = await convert(big, 'json');
    expect(result.from).toBe('yaml');
    expect(Object.keys(JSON.parse(result.output))).toHaveLength(30_000);
  });

  it('refuses YAML values JSON cannot hold', async () => {
    expect((await failure(convert('a: .inf', 'json', 'yaml'))).message).toMatch(/\/a is Infinity/);
  });
});
