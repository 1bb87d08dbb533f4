/**
 * YAML output must read back as the data written: by this tool (yaml → json) and by the
 * `yaml` package itself. Swept over strings that are awkward for a YAML writer, in every
 * position a string can take (document, value, item, key, nested), then over random
 * strings assembled from the same pieces.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { convert } from './test-helpers.js';

const AWKWARD = [
  ...['', ' ', '  ', ' x', 'x ', ' x\ny', ' \nx', ' \n', '\n \n', '  \n  x', ' x \n y \n', 'x\n ', 'x\n \n'],
  ...['\n', '\n\n', 'x\n', 'x\n\n\n', '\nx', 'line1\n  line2\n', '\t', '\tx', 'x\t', '\t\n', 'x\n\ty'],
  ...['\r', '\r\n', 'a\rb', 'a\r\nb\r\n', '\u2028', 'a\u2028b', '\u2029', '\u0085', 'a\u0085b', '\u00a0'],
  ...['\ufeff', '\ufeffx', 'x\ufeff', '\u0000', '\u0007', '\u001b', '\ud800', 'é', '😀'],
  ...['true', 'False', 'null', 'Null', '~', '1', '-0', '0x1F', '0o7', '1e3', '.inf', '-.Inf', '.nan'],
  ...['2001-12-14', '2001-12-14T21:59:43Z', '12:30', 'yes', 'on', '+1', '1_000', '0123'],
  ...['#', '# c', 'a #b', ' #', 'a: b', ': ', 'x: ', '- ', '-', '- a\n- b', '? x', '?', 'k: v\nk2: v2'],
  ...['---', '...', '--- x', '... x', 'a\n---\nb', 'a\n...\n', '%YAML 1.2', '@x', '`x', '!x', '&x', '*x'],
  ...['|', '>', '|-', '"', "'", "'x'", '"x"', '[', ']', '{', '}', ',', '\\', '\\n', '%x', '__proto__'],
  ...[
    `${'a'.repeat(300)} ${'b'.repeat(300)}`,
    'w '.repeat(200),
    ` ${'x'.repeat(5000)}\ny`,
    `${'long '.repeat(999)}\n`,
  ],
];

const placements = (s: string): unknown[] => [
  s,
  { k: s },
  [s],
  { [s]: s },
  { a: { b: [s, { c: s }] } },
  [[s], { k: [s, s] }],
];

/** Converts to YAML with the tool, then reads it back with the tool and with `yaml` alone. */
async function readsBack(data: unknown): Promise<string> {
  const written = await convert(JSON.stringify(data), 'yaml', 'json');
  expect(written.warnings).toEqual([]);
  const back = await convert(written.output, 'json', 'yaml');
  expect(JSON.parse(back.output), written.output).toEqual(data);
  expect(parse(written.output, { schema: 'core' }), written.output).toEqual(data);
  return written.output;
}

describe('format-detective YAML output reads back as the data', () => {
  it('for every awkward string in every position', async () => {
    for (const s of AWKWARD) for (const data of placements(s)) await readsBack(data);
  });

  it('for random strings made of the awkward pieces', async () => {
    const piece = fc.oneof(
      fc.constantFrom(...AWKWARD.filter((s) => s.length < 20)),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
    );
    const text = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(text, text, async (a, b) => {
        await readsBack({ [a]: b, list: [a, b], deep: { x: [{ [b]: a }] } });
        await readsBack(a);
      }),
      { seed: 20240611, numRuns: 300 },
    );
  });

  it('falls back to double quotes only when the plain layout does not read back', async () => {
    // The `yaml` package writes this as a `|1-` block its own parser rejects.
    expect(await readsBack(' x\ny')).toBe('" x\\ny"\n');
    // A line of spaces inside a block scalar reads back as an empty line.
    // ("\ " is YAML's escape for a space.)
    expect(await readsBack({ k: ' \n', other: 'a\nb\n' })).toBe('"k": "\\ \\n"\n"other": "a\\nb\\n"\n');
    // Data the plain layout holds keeps it: block scalars, bare words.
    expect(await readsBack({ k: 'a\nb\n', n: 'x' })).toBe('k: |\n  a\n  b\nn: x\n');
  });
});
