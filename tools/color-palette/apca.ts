/**
 * APCA lightness contrast (Lc), APCA-W3 0.0.98G-4g, through colorjs.io's contrastAPCA (MIT),
 * which reproduces the published apca-w3 keystone values to the last digit (apca.test.ts).
 * Only the three modules it needs are imported (about 25-45 ms to load, in the worker only),
 * not colorjs.io's index. Runs in the worker only: tool.ts never imports this file.
 */
import ColorSpace from 'colorjs.io/src/ColorSpace.js';
import contrastAPCA from 'colorjs.io/src/contrast/APCA.js';
import sRGB from 'colorjs.io/src/spaces/srgb.js';

// contrastAPCA converts both colours with to(color, "srgb"): that id must be registered.
// Registering the same space object again (colorjs.io's full index does) is a no-op.
ColorSpace.register(sRGB);

/** The APCA version and constants the Lc values follow. */
export const APCA_VERSION = 'APCA-W3 0.0.98G-4g';

/**
 * APCA bronze simple mode's use levels (APCA Readability Criterion), highest first: the
 * level a pair reaches is the highest whose Lc its |Lc| meets.
 */
export const APCA_LEVELS: readonly { level: number; use: string }[] = [
  { level: 90, use: 'preferred for body text' },
  { level: 75, use: 'minimum for body text' },
  { level: 60, use: 'minimum for other content text' },
  { level: 45, use: 'minimum for large text and headlines' },
  { level: 30, use: 'minimum for spot text (placeholder, disabled) and non-text' },
  { level: 15, use: 'non-text only: too faint for text' },
  { level: 0, use: 'too low: invisible to many' },
];

export interface ApcaReading {
  /** Signed Lc: positive for dark text on a light background, negative for light on dark. */
  lc: number;
  /** The bronze simple level reached: 90, 75, 60, 45, 30, 15 or 0. */
  level: number;
  use: string;
}

export interface ApcaContrast {
  /** White text on the colour. */
  white: ApcaReading;
  /** Black text on the colour. */
  black: ApcaReading;
  /** The text colour with the larger |Lc|. */
  textColor: 'white' | 'black';
}

type Rgb8 = readonly [number, number, number];

function srgb(rgb: Rgb8) {
  return { space: sRGB, coords: rgb.map((v) => v / 255) as [number, number, number], alpha: 1 };
}

/** Exact APCA Lc of 8-bit sRGB text on an 8-bit sRGB background (text first, as APCA orders them). */
export function apcaLc(text: Rgb8, background: Rgb8): number {
  return contrastAPCA(srgb(background), srgb(text));
}

/**
 * Lc cut toward zero to one decimal, as the WCAG ratios are cut: Lc 74.96 reads 74.9 and
 * level 60, never 75.0 and a body-text pass it does not have.
 */
export function readLc(lc: number): ApcaReading {
  const cut = Math.trunc(lc * 10 + Math.sign(lc) * 1e-9) / 10;
  const shown = Object.is(cut, -0) ? 0 : cut;
  const found = APCA_LEVELS.find((l) => Math.abs(shown) >= l.level)!;
  return { lc: shown, level: found.level, use: found.use };
}

const WHITE: Rgb8 = [255, 255, 255];
const BLACK: Rgb8 = [0, 0, 0];

/** White and black text on an 8-bit sRGB background colour. */
export function apcaOn(background: Rgb8): ApcaContrast {
  const white = apcaLc(WHITE, background);
  const black = apcaLc(BLACK, background);
  return {
    white: readLc(white),
    black: readLc(black),
    textColor: Math.abs(white) > Math.abs(black) ? 'white' : 'black',
  };
}
