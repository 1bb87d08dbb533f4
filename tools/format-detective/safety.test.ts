/** Hostile inputs are refused quickly with INVALID_INPUT, never expanded or recursed into. */
import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { convert, detect } from './test-helpers.js';

function aliasBomb(): string {
  const names = 'abcdefghi';
  let text = `a: &a [${Array(9).fill('"lol"').join(', ')}]\n`;
  for (let i = 1; i < names.length; i++) {
    text += `${names[i]}: &${names[i]} [${Array(9)
      .fill(`*${names[i - 1]}`)
      .join(', ')}]\n`;
  }
  return text; // 9^9 (387 million) strings once expanded
}

describe('format-detective safety', () => {
  // The refusal names the bound that stops the expansion (speed is measured by benchmarks).
  it('refuses a YAML alias bomb', async () => {
    await expectToolError(convert(aliasBomb(), 'json'), 'INVALID_INPUT', /aliases expand too much/);
  });

  it('still detects an alias bomb as YAML without expanding it', async () => {
    expect((await detect(aliasBomb())).format).toBe('yaml');
  });

  it('expands a few ordinary YAML aliases', async () => {
    const result = await convert('base: &b {x: 1}\ncopy: *b\n', 'json');
    expect(JSON.parse(result.output)).toEqual({ base: { x: 1 }, copy: { x: 1 } });
  });

  it('never expands DOCTYPE entities in XML', async () => {
    const xml = '<!DOCTYPE r [<!ENTITY a "AAAA"><!ENTITY b "&a;&a;&a;">]><r x="&a;">&a; &b;</r>';
    const result = await convert(xml, 'json');
    expect(result.from).toBe('xml');
    expect(JSON.parse(result.output)).toEqual({ r: { '#text': '&a; &b;', '@x': '&a;' } });
    expect(result.output).not.toContain('AAAA');
  });

  it('refuses external entities', async () => {
    const xml = '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>';
    await expectToolError(
      convert(xml, 'json', 'xml'),
      'INVALID_INPUT',
      /External entities are not supported/,
    );
  });

  it('still decodes the predefined entities and character references', async () => {
    const result = await convert(
      '<r a="&quot;q&quot;">&lt;tag&gt; &amp; &#65;&#x1F389; &#0; &bogus;</r>',
      'json',
    );
    expect(JSON.parse(result.output)).toEqual({ r: { '#text': '<tag> & A🎉 &#0; &bogus;', '@a': '"q"' } });
  });

  it('refuses pathological nesting in every parser', async () => {
    const cases: [string, string][] = [
      [`${'['.repeat(5000)}${']'.repeat(5000)}`, 'json'],
      [`${'['.repeat(5000)}${']'.repeat(5000)}`, 'yaml'],
      [`${'- '.repeat(5000)}x`, 'yaml'],
      [`a = ${'['.repeat(5000)}${']'.repeat(5000)}`, 'toml'],
      [`${'<a>'.repeat(500)}${'</a>'.repeat(500)}`, 'xml'],
    ];
    for (const [input, from] of cases) {
      const err = await expectToolError(convert(input, 'json', from), 'INVALID_INPUT');
      expect([from, err.code]).toEqual([from, 'INVALID_INPUT']);
      expect(err.message).toMatch(/nest|depth|Maximum/i);
    }
  });

  it('accepts nesting up to the limit', async () => {
    const input = `${'['.repeat(100)}${']'.repeat(100)}`;
    expect(JSON.parse((await convert(input, 'json', 'yaml')).output)).toHaveLength(1);
  });

  it('refuses a CSV with too many columns', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => ({ [`k${i}`]: i }));
    await expectToolError(convert(JSON.stringify(rows), 'csv'), 'INVALID_INPUT', /over 1000 columns/);
  });
});
