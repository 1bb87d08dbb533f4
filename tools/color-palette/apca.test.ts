import ColorSpace from 'colorjs.io/src/ColorSpace.js';
import contrastWCAG21 from 'colorjs.io/src/contrast/WCAG21.js';
import sRGB from 'colorjs.io/src/spaces/srgb.js';
import { wcagContrast } from 'culori';
import { describe, expect, it } from 'vitest';
import { declaredCases, seededRandom } from '../_shared/test-helpers.js';
import { APCA_LEVELS, APCA_VERSION, apcaLc, readLc } from './apca.js';
import { colorPalette, type Result } from './test-helpers.js';
import tool from './tool.js';

ColorSpace.register(sRGB);

type Rgb8 = [number, number, number];
const rgb8 = (hex: string): Rgb8 => {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb8;
};
const toHex = (c: Rgb8) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** The same random colours on every run. */
const randomColors = (seed: number, n: number): Rgb8[] => {
  const next = seededRandom(seed);
  return Array.from({ length: n }, () => [0, 0, 0].map(() => Math.floor(next() * 256)) as Rgb8);
};

/**
 * APCA-W3 0.0.98G-4g written here from its published steps (the apca-w3 README, "the basic
 * math"), independently of colorjs.io, which the tool runs: a second implementation.
 */
function apcaByHand(text: Rgb8, background: Rgb8): number {
  const y = ([r, g, b]: Rgb8) =>
    0.2126729 * (r / 255) ** 2.4 + 0.7151522 * (g / 255) ** 2.4 + 0.072175 * (b / 255) ** 2.4;
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: APCA's blkClmp is 1.414 exactly, not √2
  const clamp = (v: number) => (v > 0.022 ? v : v + (0.022 - v) ** 1.414);
  const txt = clamp(y(text));
  const bg = clamp(y(background));
  if (Math.abs(bg - txt) < 0.0005) return 0;
  if (bg > txt) {
    const s = (bg ** 0.56 - txt ** 0.57) * 1.14;
    return s < 0.1 ? 0 : (s - 0.027) * 100;
  }
  const s = (bg ** 0.65 - txt ** 0.62) * 1.14;
  return s > -0.1 ? 0 : (s + 0.027) * 100;
}

/**
 * The published keystone values of APCA-W3 with the G-4g constants, text first: the apca-w3
 * test suite (Myndex/apca-w3 test/index.js) and the "TESTING YOUR IMPLEMENTATION" block of the
 * APCA README. The last two are listed there as values "only for certain experimental
 * low-scale versions" that do not apply to apca-w3: its low clip (|SAPC| < 0.1) makes them 0.
 */
const KEYSTONES: [text: string, background: string, lc: number][] = [
  ['#888', '#fff', 63.056469930209424],
  ['#fff', '#888', -68.54146436644962],
  ['#000', '#aaa', 58.146262578561334],
  ['#aaa', '#000', -56.24113336839742],
  ['#123', '#def', 91.66830811481631],
  ['#def', '#123', -93.06770049484275],
  ['#123', '#444', 8.32326136957393],
  ['#444', '#123', -7.526878460278154],
  // Published as 1.7512243099356113 and -1.6349191031377903 for low-scale versions only.
  ['#123', '#234', 0],
  ['#234', '#123', 0],
];

describe('APCA Lc (APCA-W3 0.0.98G-4g)', () => {
  it('reproduces the published keystone values to the last digit', () => {
    for (const [text, background, lc] of KEYSTONES) {
      expect(apcaLc(rgb8(text), rgb8(background)), `${text} on ${background}`).toBe(lc);
      expect(apcaByHand(rgb8(text), rgb8(background)), `by hand: ${text} on ${background}`).toBeCloseTo(
        lc,
        10,
      );
    }
    expect(KEYSTONES.length).toBe(declaredCases(import.meta.url, 'APCA-W3 keystone values'));
  });

  it('returns them through the tool: white and black text on the colour, cut toward zero', async () => {
    const grey = (await colorPalette({ color: '#888' }, 'convert')) as Result;
    // #fff on #888 is published as -68.54146436644962
    expect(grey).toMatchObject({ apcaVersion: APCA_VERSION, apca: { white: { lc: -68.5, level: 60 } } });
    const light = (await colorPalette({ color: '#aaa' }, 'convert')) as Result;
    // #000 on #aaa is published as 58.146262578561334
    expect(light).toMatchObject({ apca: { black: { lc: 58.1, level: 45 }, textColor: 'black' } });
    const white = (await colorPalette({ color: 'white' }, 'convert')) as Result;
    expect(white).toMatchObject({ apca: { black: { lc: 106, level: 90 }, white: { lc: 0, level: 0 } } });
    const black = (await colorPalette({ color: 'black' }, 'convert')) as Result;
    expect(black).toMatchObject({ apca: { white: { lc: -107.8, level: 90 }, black: { lc: 0 } } });
  });

  it('agrees with the formula written by hand on random colour pairs', () => {
    const colors = randomColors(25, 2 * declaredCases(import.meta.url, 'APCA-W3 0.0.98G-4g written from'));
    let pairs = 0;
    for (let i = 0; i < colors.length; i += 2) {
      const [text, background] = [colors[i]!, colors[i + 1]!];
      expect(apcaLc(text, background), `${toHex(text)} on ${toHex(background)}`).toBeCloseTo(
        apcaByHand(text, background),
        9,
      );
      pairs++;
    }
    expect(pairs).toBe(declaredCases(import.meta.url, 'APCA-W3 0.0.98G-4g written from'));
  });

  it('gives every palette colour the Lc of white and black text on its hex', async () => {
    const r = (await colorPalette({ color: 'oklch(62% 0.3 300)', count: 20 }, 'shades')) as unknown as {
      colors: { hex: string; apca: { white: { lc: number }; black: { lc: number }; textColor: string } }[];
    };
    for (const c of r.colors) {
      const white = apcaByHand([255, 255, 255], rgb8(c.hex));
      const black = apcaByHand([0, 0, 0], rgb8(c.hex));
      expect(c.apca.white).toEqual(readLc(white));
      expect(c.apca.black).toEqual(readLc(black));
      expect(c.apca.textColor).toBe(Math.abs(white) > Math.abs(black) ? 'white' : 'black');
    }
  });

  it('reads Lc with the bronze simple levels, never rounding up to a level', () => {
    expect(readLc(74.96)).toMatchObject({ lc: 74.9, level: 60 });
    expect(readLc(-59.96)).toMatchObject({ lc: -59.9, level: 45 });
    expect(readLc(75)).toMatchObject({ lc: 75, level: 75, use: 'minimum for body text' });
    expect(readLc(-90.01)).toMatchObject({ lc: -90, level: 90, use: 'preferred for body text' });
    expect(readLc(14.99)).toMatchObject({ lc: 14.9, level: 0 });
    expect(readLc(-0.04)).toEqual({ lc: 0, level: 0, use: APCA_LEVELS.at(-1)!.use });
    expect(APCA_LEVELS.map((l) => l.level)).toEqual([90, 75, 60, 45, 30, 15, 0]);
  });

  it('names the APCA version in the output schema and results', () => {
    const output = tool.output as { properties: Record<string, { enum?: string[] }> };
    expect(output.properties.apcaVersion!.enum).toEqual([APCA_VERSION]);
    expect(APCA_VERSION).toBe('APCA-W3 0.0.98G-4g');
  });
});

describe('WCAG 2 ratios against two other implementations', () => {
  const cut = (ratio: number) => Math.floor(ratio * 100 + 1e-9) / 100;

  it('culori wcagContrast and colorjs.io contrastWCAG21 give the ratios the tool cuts', async () => {
    const n = declaredCases(import.meta.url, 'WCAG 2.x contrast: culori');
    expect(declaredCases(import.meta.url, 'WCAG 2.x contrast: colorjs.io')).toBe(n);
    let checked = 0;
    for (const color of randomColors(2025, n)) {
      const hex = toHex(color);
      const r = (await colorPalette({ color: hex }, 'convert')) as Result;
      const srgb = { space: sRGB, coords: color.map((v) => v / 255) as Rgb8, alpha: 1 };
      const white = { space: sRGB, coords: [1, 1, 1] as Rgb8, alpha: 1 };
      const black = { space: sRGB, coords: [0, 0, 0] as Rgb8, alpha: 1 };
      expect(r.contrast.white, hex).toBe(cut(wcagContrast(hex, '#ffffff')));
      expect(r.contrast.black, hex).toBe(cut(wcagContrast(hex, '#000000')));
      // colorjs.io takes Y from CSS Color 4's XYZ matrix (0.2126390..., not WCAG's 0.2126, ...):
      // the ratios agree to about 1e-4, so a ratio may sit across a cut from the tool's.
      for (const [ratio, other] of [
        [wcagContrast(hex, '#ffffff'), contrastWCAG21(srgb, white)],
        [wcagContrast(hex, '#000000'), contrastWCAG21(srgb, black)],
      ] as const) {
        expect(Math.abs(ratio - other) / ratio, hex).toBeLessThan(2e-4);
      }
      expect(Math.abs(r.contrast.white - cut(contrastWCAG21(srgb, white))), hex).toBeLessThanOrEqual(
        0.0100001,
      );
      expect(Math.abs(r.contrast.black - cut(contrastWCAG21(srgb, black))), hex).toBeLessThanOrEqual(
        0.0100001,
      );
      checked++;
    }
    expect(checked).toBe(n);
  });
});
