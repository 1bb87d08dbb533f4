import Color from 'colorjs.io';
import { XMLValidator } from 'fast-xml-parser';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { declaredCases, expectToolError, toolRunner } from '../_shared/test-helpers.js';
import { checkColors, contrastRatio, MIN_CONTRAST, overWhite, parseHex } from './colors.js';
import { chooseSymbol, LOGO_SHARE, logoArea, logoDamage, withLogoArea } from './logo.js';
import run from './run.js';
import { readPng } from './test-helpers.js';
import tool, { MAX_LOGO, MAX_MARGIN } from './tool.js';
import { CHECK_SCALE, checkModules, readBitPng } from './verify.js';

type Result = Record<string, unknown> & {
  data: string;
  version: number;
  modules: number;
  errorCorrection: string;
  logoArea: { fraction: number; modules: number; start: number; box: Record<string, number> | null } | null;
};
const qrCode = toolRunner(tool, run);
const call = async (input: Record<string, unknown>, mode = 'svg') => (await qrCode(input, mode)) as Result;
const invalid = (input: Record<string, unknown>, message?: string | RegExp, mode = 'svg') =>
  expectToolError(qrCode(input, mode), 'INVALID_INPUT', message);
const URL_DATA = 'https://example.com/';

describe('qr-code defaults stay as they were', () => {
  it.each([
    ['a URL', URL_DATA, 'M'],
    ['Unicode at H', 'Grüße 😀', 'H'],
    ['digits at L', '0123456789'.repeat(30), 'L'],
  ])('%s: svg and utf8 are byte for byte what qrcode.toString gives', async (_label, data, level) => {
    const options = { errorCorrectionLevel: level as 'M', margin: 4, width: 256 };
    const svg = await call({ data, errorCorrection: level });
    expect(svg.data).toBe(await QRCode.toString(data, { ...options, type: 'svg' }));
    const text = await call({ data, errorCorrection: level }, 'utf8');
    expect(text.data).toBe(await QRCode.toString(data, { ...options, type: 'utf8' }));
    expect(svg).toMatchObject({
      margin: 4,
      errorCorrectionRaised: false,
      dark: '#000000',
      light: '#ffffff',
      contrast: 21,
      logoArea: null,
      decodeCheck: { decoded: true, matches: true, source: 'modules' },
    });
  });

  it('the PNG stays a 1-bit greyscale image for black on white, a palette one otherwise', async () => {
    const grey = await call({ data: URL_DATA }, 'png');
    const colour = await call({ data: URL_DATA, dark: '#1a237e' }, 'png');
    const alpha = await call({ data: URL_DATA, light: '#ffffff00' }, 'png');
    const header = (r: Result) => Buffer.from(r.data.split(',')[1]!, 'base64');
    expect([header(grey)[24], header(grey)[25]]).toEqual([1, 0]);
    expect([header(colour)[24], header(colour)[25]]).toEqual([1, 3]);
    expect(header(alpha).includes(Buffer.from('tRNS'))).toBe(true);
    const png = readPng(colour.data);
    expect([...png.data.subarray(0, 4)]).toEqual([255, 255, 255, 255]); // quiet zone: light
  });
});

/**
 * WCAG 2 contrast ratio, against colorjs.io's implementation (an independent one). The
 * count is in conformance.json.
 */
const CONTRAST_PAIRS: [string, string][] = [
  ['#000000', '#ffffff'],
  ['#1a237e', '#fff8e1'],
  ['#b71c1c', '#ffffff'],
  ['#1e88e5', '#ffffff'],
  ['#777777', '#ffffff'],
  ['#000000', '#595959'],
  ['#333333', '#cccccc'],
  ['#2e7d32', '#e8f5e9'],
  ['#ff8800', '#ffffff'],
  ['#123456', '#abcdef'],
  ['#00000080', '#ffffff'],
  ['#ff000040', '#00ff0020'],
];

describe('qr-code colours', () => {
  it('computes the WCAG 2 contrast ratio as colorjs.io does (over white)', () => {
    expect(declaredCases(import.meta.url, 'WCAG 2 contrast ratio')).toBe(CONTRAST_PAIRS.length);
    for (const [a, b] of CONTRAST_PAIRS) {
      const [x, y] = [overWhite(parseHex('a', a)), overWhite(parseHex('b', b))];
      const hex = (c: typeof x) => `rgb(${c.r} ${c.g} ${c.b})`;
      const expected = new Color(hex(x)).contrast(new Color(hex(y)), 'WCAG21');
      // colorjs.io takes luminance from its XYZ matrix (0.2126729, 0.7151522, 0.072175), WCAG
      // writes 0.2126, 0.7152, 0.0722: the ratios agree to within 5 parts in 10^4.
      expect(Math.abs(contrastRatio(x, y) / expected - 1), `${a} / ${b}`).toBeLessThan(5e-4);
      expect(contrastRatio(x, y) >= MIN_CONTRAST, `${a} / ${b}`).toBe(expected >= MIN_CONTRAST);
    }
  });

  it('accepts #rgb, #rgba, #rrggbb and #rrggbbaa in any case, and answers them as #rrggbb[aa]', async () => {
    const r = await call({ data: URL_DATA, dark: '#1A2', light: '#FFFE' }, 'png');
    expect(r).toMatchObject({ dark: '#11aa22', light: '#ffffffee' });
    const svg = await call({ data: URL_DATA, dark: '#1a237ecc', light: '#fff8e1' });
    expect(svg.data).toContain('stroke="#1a237e" stroke-opacity=".80"');
    expect(svg.data).toContain('fill="#fff8e1"');
    expect(XMLValidator.validate(svg.data)).toBe(true);
    // A transparent light colour: no background at all.
    expect((await call({ data: URL_DATA, light: '#ffffff00' })).data).not.toContain('fill=');
  });

  it('refuses a bad colour, an inverted pair and too little contrast, saying the rule', async () => {
    await invalid({ data: URL_DATA, dark: 'black' }, "dark 'black' is not a hex colour; use #rgb, #rgba");
    await invalid({ data: URL_DATA, light: '#12345' }, "light '#12345' is not a hex colour");
    await invalid({ data: URL_DATA, dark: '#ggg' }, 'not a hex colour');
    await invalid({ data: URL_DATA, dark: `#${'0'.repeat(3000)}` }, /not a hex colour/);
    await invalid(
      { data: URL_DATA, dark: '#fff', light: '#000' },
      'dark #ffffff is lighter than light #000000',
    );
    await invalid(
      { data: URL_DATA, dark: '#ff8800' },
      `contrast ratio of 2.39:1 (as shown over white); a code needs at least ${MIN_CONTRAST}:1`,
    );
    await invalid({ data: URL_DATA, dark: '#777', light: '#777' }, 'contrast ratio of 1.00:1');
    // Transparent dark modules show as the paper: no contrast.
    await invalid({ data: URL_DATA, dark: '#00000000' }, 'contrast ratio of 1.00:1');
    // Bounded message, whatever the input.
    const err = await invalid({ data: URL_DATA, light: `#${'f'.repeat(3000)}` });
    expect(err.message.length).toBeLessThan(300);
  });

  it('checkColors returns the ratio it judged by', () => {
    expect(checkColors('#000', '#fff').contrast).toBe(21);
    expect(checkColors('#777', '#fff').contrast).toBeCloseTo(4.48, 2);
  });
});

describe('qr-code margin', () => {
  it.each([0, 1, 3, 4, 10, MAX_MARGIN])('margin %i: the quiet zone and viewBox follow it', async (margin) => {
    const svg = await call({ data: URL_DATA, margin, size: 512 });
    const side = svg.modules + 2 * margin;
    expect(svg.margin).toBe(margin);
    expect(svg.data).toContain(`viewBox="0 0 ${side} ${side}"`);
    const text = await call({ data: URL_DATA, margin }, 'utf8');
    expect(text.data.split('\n')).toHaveLength(Math.ceil(side / 2));
    expect([...text.data.split('\n')[0]!]).toHaveLength(side);
    const png = await call({ data: URL_DATA, margin, size: 512 }, 'png');
    expect(png.decodeCheck).toEqual({ decoded: true, matches: true, source: 'png' });
  });

  it('refuses a margin out of range, and a size too small for the margin asked', async () => {
    await invalid({ data: URL_DATA, margin: -1 }, 'margin must be >= 0');
    await invalid({ data: URL_DATA, margin: MAX_MARGIN + 1 }, `margin must be <= ${MAX_MARGIN}`);
    await invalid({ data: URL_DATA, margin: 2.5 }, 'margin must be integer');
    await invalid({ data: URL_DATA, margin: 'wide' }, 'margin must be integer');
    // 100 bytes at M: version 6, 41 modules; with 16 modules each side that is 73 px.
    await invalid(
      { data: 'x'.repeat(100), margin: 16, size: 64 },
      '16-module margin each side); use at least 73',
    );
  });
});

describe('qr-code logo area', () => {
  it('blanks an odd, centred square of modules, clear of the finder patterns', () => {
    expect(logoArea(21, 0)).toBeNull();
    expect(logoArea(21, 0.3)).toEqual({ modules: 7, start: 7 });
    expect(logoArea(25, 0.2)).toEqual({ modules: 5, start: 10 });
    expect(logoArea(177, 0.3)).toEqual({ modules: 53, start: 62 });
    expect(logoArea(177, 0.001)).toEqual({ modules: 1, start: 88 });
    const qr = QRCode.create(URL_DATA, { errorCorrectionLevel: 'H' });
    const area = logoArea(qr.modules.size, 0.2)!;
    const drawn = withLogoArea(qr.modules, area);
    for (let r = 0; r < qr.modules.size; r++) {
      for (let c = 0; c < qr.modules.size; c++) {
        const inside = [r, c].every((i) => i >= area.start && i < area.start + area.modules);
        expect(drawn.get(r, c)).toBe(inside ? 0 : qr.modules.get(r, c));
      }
    }
  });

  it('raises the level to the lowest one that bears the area with the margin, and says so', async () => {
    const r = await call({ data: URL_DATA, logo: 0.2, errorCorrection: 'L' }, 'png');
    expect(r).toMatchObject({ errorCorrection: 'H', errorCorrectionRaised: true });
    // Every level below the one chosen would spend more than LOGO_SHARE of a block's correction.
    const long = 'x'.repeat(500);
    const chosen = chooseSymbol(long, 'L', 0.25);
    expect(chosen.level).toBe('M');
    const atL = chooseSymbol(long, 'L', 0);
    const damage = logoDamage(atL.qr, 'L', logoArea(atL.qr.modules.size, 0.25)!);
    expect(damage.worst).toBeGreaterThan(damage.correctable * LOGO_SHARE);
    const used = logoDamage(chosen.qr, chosen.level, chosen.area!);
    expect(used.worst).toBeLessThanOrEqual(used.correctable * LOGO_SHARE);
    // Asked for H already: nothing to raise.
    expect(await call({ data: URL_DATA, logo: 0.1, errorCorrection: 'H' })).toMatchObject({
      errorCorrection: 'H',
      errorCorrectionRaised: false,
    });
  });

  it('gives the box to place the logo in, per format', async () => {
    const png = await call({ data: URL_DATA, logo: 0.3, size: 400 }, 'png');
    const area = png.logoArea!;
    expect(area).toMatchObject({ fraction: 0.3 });
    const scale = Math.floor(400 / (png.modules + 8));
    expect(area.box!.width).toBe(area.modules * scale);
    const svg = await call({ data: URL_DATA, logo: 0.3, size: 400 });
    const unit = 400 / (svg.modules + 8);
    expect(svg.logoArea!.box!.x).toBeCloseTo((4 + svg.logoArea!.start) * unit, 2);
    expect((await call({ data: URL_DATA, logo: 0.3 }, 'utf8')).logoArea!.box).toBeNull();
  });

  it('refuses a logo area too big or negative, and data that no longer fits at the raised level', async () => {
    await invalid({ data: URL_DATA, logo: 0.31 }, `logo must be <= ${MAX_LOGO}`);
    await invalid({ data: URL_DATA, logo: -0.1 }, 'logo must be >= 0');
    await invalid({ data: URL_DATA, logo: 'big' }, 'logo must be number');
    // 2000 bytes fit at L (2953) and M (2331), not at Q (1663), which the area needs.
    const err = await invalid(
      { data: 'x'.repeat(2000), logo: 0.3, errorCorrection: 'L', size: 2048 },
      'a logo area of 0.3 needs error-correction level Q or higher for this data, and data is 2000 bytes; the maximum at level Q is 1663 bytes',
    );
    expect(err.message).toMatch(/use a smaller logo area$/);
    expect(err.message.length).toBeLessThan(400);
  });
});

describe('qr-code decode check', () => {
  it('reports the check on every format, or null when off', async () => {
    for (const mode of ['svg', 'png', 'utf8']) {
      const r = await call({ data: URL_DATA, logo: 0.25, dark: '#1a237e' }, mode);
      expect(r.decodeCheck).toEqual({
        decoded: true,
        matches: true,
        source: mode === 'png' ? 'png' : 'modules',
      });
      expect((await call({ data: URL_DATA, decodeCheck: 'off' }, mode)).decodeCheck).toBeNull();
    }
    await expectToolError(
      qrCode({ data: URL_DATA, decodeCheck: 'maybe' }),
      'UNSUPPORTED_OPTION',
      'require, report, off',
    );
  });

  it('finds a code that does not scan (an area no level was raised for)', () => {
    const qr = QRCode.create('x'.repeat(200), { errorCorrectionLevel: 'L' });
    const black = { r: 0, g: 0, b: 0, a: 255 };
    const white = { r: 255, g: 255, b: 255, a: 255 };
    const colors = { dark: black, light: white };
    expect(checkModules(qr.modules, 'x'.repeat(200), 4, colors)).toMatchObject({
      decoded: true,
      matches: true,
    });
    const blanked = withLogoArea(qr.modules, logoArea(qr.modules.size, 0.3));
    expect(checkModules(blanked, 'x'.repeat(200), 4, colors)).toMatchObject({
      decoded: false,
      matches: false,
    });
    // Another text than the data: read, not matching.
    expect(checkModules(qr.modules, 'y', 4, colors)).toEqual({
      decoded: true,
      matches: false,
      source: 'modules',
    });
  });

  it('reads the PNG as pngjs does (an independent PNG decoder)', async () => {
    const inputs = [
      { size: 64 },
      { size: 333, dark: '#1a237e', light: '#fff8e1' },
      { size: 500, dark: '#00000099', light: '#ffffff00', logo: 0.2 },
      { size: 1001, margin: 0 },
    ];
    expect(declaredCases(import.meta.url, 'PNG reader of the decode check')).toBe(inputs.length);
    for (const input of inputs) {
      const r = await call({ data: URL_DATA, ...input }, 'png');
      const ours = readBitPng(Buffer.from(r.data.split(',')[1]!, 'base64'));
      const theirs = readPng(r.data);
      expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
      for (let y = 0; y < theirs.height; y++) {
        for (let x = 0; x < theirs.width; x++) {
          const c = ours.colors[ours.bit(x, y)]!;
          const i = (y * theirs.width + x) * 4;
          if (
            c.r !== theirs.data[i] ||
            c.g !== theirs.data[i + 1] ||
            c.b !== theirs.data[i + 2] ||
            c.a !== theirs.data[i + 3]
          )
            expect.unreachable(`pixel ${x},${y} differs`);
        }
      }
    }
    // A damaged file is no code: the check says so rather than crash.
    expect(() => readBitPng(Buffer.from('not a png'))).toThrow('not a PNG');
  });

  // Its time is measured by the bench's first-run stage, not asserted here (docs/benchmarks.md).
  it('decodes the largest PNG (version 40, 2048 px), read at CHECK_SCALE px per module', async () => {
    const r = await call({ data: 'x'.repeat(2953), errorCorrection: 'L', size: 2048 }, 'png');
    expect(r.decodeCheck).toEqual({ decoded: true, matches: true, source: 'png' });
    expect(CHECK_SCALE).toBe(4);
  });
});
