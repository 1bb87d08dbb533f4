import { differenceEuclidean, displayable, parse } from 'culori';
import { describe, expect, it } from 'vitest';
import { expectToolError, specOf } from '../_shared/test-helpers.js';
import { colorPalette, convert, lchOf, toOklch } from './test-helpers.js';
import tool, { FORMATS, SCHEMES } from './tool.js';

const deltaOk = differenceEuclidean('oklab');

describe('convert', () => {
  it('converts #ff0000 to the known values', async () => {
    const r = await convert('#ff0000', 'oklch');
    expect(r.hex).toBe('#ff0000');
    expect(r.oklch).toBe('oklch(62.8% 0.2577 29.23)');
    expect(r.output).toBe(r.oklch);
    expect(r.formats.rgb).toBe('rgb(255, 0, 0)');
    expect(r.formats.hsl).toBe('hsl(0 100% 50%)');
    expect(r.formats.hwb).toBe('hwb(0 0% 0%)');
    const ok = lchOf(r.oklch as string);
    expect(ok.l).toBeCloseTo(0.628, 3);
    expect(ok.c).toBeCloseTo(0.2577, 4);
    expect(ok.h).toBeCloseTo(29.23, 2);
    expect(r.inGamut).toBe(true);
  });

  it('returns the target under its own name for every format', async () => {
    for (const format of FORMATS) {
      const r = await convert('rebeccapurple', format);
      expect(r.format).toBe(format);
      expect(r[format]).toBe(r.formats[format]);
      expect(r.hex).toBe('#663399');
    }
  });

  it('writes strings that parse back to the same colour (culori as oracle)', async () => {
    const inputs = [
      '#3366cc',
      'hsl(120 100% 25%)',
      'lab(50% 40 59.5)',
      'oklch(0.7 0.1 200)',
      'hwb(200 10% 20%)',
      'teal',
    ];
    for (const input of inputs) {
      const r = await convert(input);
      for (const format of FORMATS) {
        const back = parse(r.formats[format]!);
        expect(back, `${input} as ${format}: ${r.formats[format]}`).toBeDefined();
        // hex and rgb round to 8 bits; the others to 2-4 decimals
        expect(deltaOk(back!, parse(input)!), `${input} as ${format}`).toBeLessThan(0.004);
      }
    }
  });

  it('reads named colours, case-insensitively, and bare hex', async () => {
    expect((await convert('RebeccaPurple')).hex).toBe('#663399');
    expect((await convert('  navy  ')).hex).toBe('#000080');
    expect((await convert('ff8800')).hex).toBe('#ff8800');
    expect((await convert('f80')).hex).toBe('#ff8800');
    expect((await convert('hsl(120 100% 25%)', 'hex')).hex).toBe('#008000');
  });

  it('defaults the target to hex; the format is matched exactly, as the schema enum does', async () => {
    expect((await convert('red')).format).toBe('hex');
    // run() once lower-cased it, but the service's schema refuses 'OKLCH' before any run.
    await expectToolError(convert('red', 'OKLCH'), 'UNSUPPORTED_OPTION', 'oklch');
  });

  it('keeps the alpha channel', async () => {
    const r = await convert('#ff000080', 'rgb');
    expect(r.hex).toBe('#ff000080');
    expect(r.rgb).toBe('rgba(255, 0, 0, 0.5)');
    expect(r.formats.oklch).toBe('oklch(62.8% 0.2577 29.23 / 0.502)');
    expect((await convert('transparent')).hex).toBe('#00000000');
  });

  it('gamut-maps wide-gamut colours for sRGB formats but keeps them exact in oklch', async () => {
    const r = await convert('color(display-p3 1 0 0)', 'oklch');
    expect(r.inGamut).toBe(false);
    expect(displayable(parse(r.hex)!)).toBe(true);
    const source = toOklch(parse('color(display-p3 1 0 0)')!);
    expect(lchOf(r.oklch as string).c).toBeCloseTo(source.c, 3);
    // chroma reduction keeps the hue of the mapped hex close to the source hue
    expect(Math.abs((lchOf(r.hex).h ?? 0) - (source.h ?? 0))).toBeLessThan(1.5);
  });

  it('clamps out-of-range rgb() like CSS does', async () => {
    expect((await convert('rgb(300 -20 0)')).hex).toBe('#ff0000');
  });

  it('gives WCAG contrast ratios (white on black is 21)', async () => {
    expect((await convert('black')).contrast).toEqual({ white: 21, black: 1 });
    expect((await convert('#ffffff')).contrast).toEqual({ white: 1, black: 21 });
    expect((await convert('#767676')).contrast.white).toBeCloseTo(4.54, 2);
  });

  it('refuses what is not a colour, naming it', async () => {
    await expectToolError(convert('notacolor'), 'INVALID_INPUT', 'notacolor');
    await expectToolError(convert('rëd'), 'INVALID_INPUT', 'rëd');
    await expectToolError(convert('#ggg'), 'INVALID_INPUT', '#ggg');
    // culori's tokenizer throws on a lone slash rather than answering undefined.
    await expectToolError(convert('/0A'), 'INVALID_INPUT', '/0A');
    await expectToolError(convert('rgb(1e400 0 0)'), 'INVALID_INPUT');
    await expectToolError(convert(''), 'INVALID_INPUT', 'color must NOT have fewer than 1 characters');
    await expectToolError(convert('   '), 'INVALID_INPUT', 'empty');
    // A number is read as its text (123 is the hex colour #123); a list cannot be.
    await expectToolError(convert([123]), 'INVALID_INPUT', 'color must be string');
    await expectToolError(convert(undefined), 'INVALID_INPUT');
    await expectToolError(convert(`#${'f'.repeat(300)}`), 'INVALID_INPUT', '256');
  });

  it('refuses an unknown target format with UNSUPPORTED_OPTION listing the formats', async () => {
    await expectToolError(convert('red', 'cmyk'), 'UNSUPPORTED_OPTION', 'oklch');
  });

  it('refuses an unknown mode', async () => {
    await expectToolError(colorPalette({ color: 'red' }, 'pastel'), 'UNSUPPORTED_OPTION', 'analogous');
  });
});

describe('definition', () => {
  it('matches the contract: modes, fields and endpoints', () => {
    expect(specOf(tool).modes).toEqual(['convert', ...SCHEMES]);
    expect(specOf(tool).fields).toEqual({ a: 'color', b: 'count', c: null });
    expect(specOf(tool).fieldsByMode).toEqual({ convert: { b: 'format' } });
    expect(specOf(tool).endpoints.map((e) => e.path)).toEqual([
      '/api/color-palette/generate/',
      '/api/color-palette/convert/',
    ]);
    expect(specOf(tool).endpoints[0]!.modes![0]).toBe('analogous');
    expect(specOf(tool).endpoints[1]!.mode).toBe('convert');
  });
});
