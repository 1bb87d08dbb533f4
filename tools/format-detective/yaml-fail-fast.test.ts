import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { parseYamlFailFast, YamlSyntaxError } from '../_shared/yaml-fail-fast.js';
import { convert, detect } from './test-helpers.js';

const OPTIONS = { schema: 'core' as const, logLevel: 'silent' as const };

describe('parseYamlFailFast', () => {
  it('returns the documents of valid YAML, with warnings kept', () => {
    const docs = parseYamlFailFast('a: 1\n---\nb: !custom x\n', OPTIONS);
    expect(docs.map((doc) => doc.toJS())).toEqual([{ a: 1 }, { b: 'x' }]);
    expect(docs[1]!.warnings[0]!.message).toMatch(/Unresolved tag: !custom at line 3, column 4/);
  });

  it('throws the first error with its position, even from inside nested collections', () => {
    expect(() => parseYamlFailFast('a:\n  b: [1, 2\n', OPTIONS)).toThrow(YamlSyntaxError);
    // Same wording and position as yaml's own (pretty) first error.
    expect(() => parseYamlFailFast('a: 1\nb\n', OPTIONS)).toThrow(
      /^Implicit map keys need to be followed by map values at line 2, column 1$/,
    );
    expect(() => parseYamlFailFast('x: {a: [1, "unterminated]}\n', OPTIONS)).toThrow(/^[^\n]*$/);
  });
});

describe('format-detective on large texts that are not YAML', () => {
  // Each used to compose every YAML error, each with a stack trace (9 s, and over 3 minutes);
  // speed is the benchmark's business, so this checks the answers (the test timeout is the net).
  const cases: [string, string, string][] = [
    ['NDJSON', '{"id":1,"ok":true}\n'.repeat(27_000), 'ndjson'],
    ['a run of double quotes', '"'.repeat(500_000), 'text'],
  ];
  for (const [name, text, format] of cases) {
    it(`detects ${name} at 512 KiB`, async () => {
      const result = await detect(text);
      if (format === 'text') expect(result.candidates.map((c) => c.format)).not.toContain('yaml');
      else expect(result.format).toBe(format);
    });
  }

  it('still reports where YAML given as `from` breaks', async () => {
    await expectToolError(
      convert('a: 1\nb\n', 'json', 'yaml'),
      'INVALID_INPUT',
      /^input is not valid YAML: .* at line 2, column \d+$/,
    );
  });
});
