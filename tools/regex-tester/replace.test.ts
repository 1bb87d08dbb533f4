import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import { MAX_OUTPUT_CHARS } from './substitute.js';
import tool from './tool.js';

const regexTester = toolRunner(tool, run);
const replace = async (input: Record<string, unknown>) =>
  (await regexTester(input, 'replace')) as Record<string, unknown>;

describe('regex-tester replace', () => {
  it('expands $1, $<name>, $& and $$; global with g, first match without', async () => {
    const input = { pattern: '(?<user>\\w+)@(\\w+)', text: 'me@x you@y', replacement: '$2:$<user> [$&] $$' };
    expect(await replace({ ...input, flags: 'g' })).toMatchObject({
      output: 'x:me [me@x] $ y:you [you@y] $',
      replacements: 2,
    });
    expect((await replace(input)).output).toBe('x:me [me@x] $ you@y');
  });

  it('deletes matches when the replacement is omitted', async () => {
    expect((await replace({ pattern: '/\\s+/g', text: ' a  b ' })).output).toBe('ab');
  });

  it('gives the same output as String.prototype.replace for any template (oracle)', async () => {
    const patterns: [string, string][] = [
      ['(a)(b)?', 'g'],
      ['(?<x>a)|(?<y>c)', 'g'],
      ['', 'g'],
      ['(?:)', 'gu'],
      ['b', ''],
      ['((((((((((a))))))))))(z)?', 'g'],
    ];
    const template = fc.stringMatching(/^[$&`'0-9<>xyab]{0,12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...patterns),
        fc.stringMatching(/^[abc😀]{0,8}$/u),
        template,
        async ([p, f], text, t) => {
          const r = await replace({ pattern: p === '' ? '(?:)' : p, flags: f, text, replacement: t });
          expect(r.output).toBe(text.replace(new RegExp(p, f), t));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses a replacement whose output would pass the size limit', async () => {
    const tooLarge = replace({ pattern: '(?:)', flags: 'g', text: 'x'.repeat(131072), replacement: '$`' });
    await expectToolError(tooLarge, 'INVALID_INPUT', `exceed ${MAX_OUTPUT_CHARS} characters`);
    // Just under the limit is fine.
    const ok = await replace({ pattern: 'x', flags: 'g', text: 'x'.repeat(131072), replacement: '12345678' });
    expect((ok.output as string).length).toBe(1_048_576);
  });
});
