import { type Color, clampRgb, converter, formatHex, formatHex8, formatRgb, type Rgb, toGamut } from 'culori';
import { luminanceContrast, relativeLuminance } from '../_shared/wcag.js';

/** The conversion targets and their CSS text. */
export type FormatName = 'hex' | 'rgb' | 'hsl' | 'hwb' | 'lab' | 'lch' | 'oklab' | 'oklch';

/**
 * Gamut mapping by OKLCH chroma reduction, keeping lightness and hue (unlike clipping).
 * No delta / jnd 0 turns off CSS Color 4's final clip, which may shift the hue by several degrees:
 * palettes are defined by their hues.
 */
const gamutMap = toGamut('rgb', 'oklch', null, 0);
const toRgb = converter('rgb');
/** Float noise of a round trip through OKLCH (about 1e-13) must not count as "out of gamut". */
const GAMUT_EPSILON = 1e-6;

function within(value: number): boolean {
  return value >= -GAMUT_EPSILON && value <= 1 + GAMUT_EPSILON;
}

/** True when the colour lies in sRGB (up to float noise). */
export function inSrgb(color: Color): boolean {
  const rgb = toRgb(color);
  // A `none` channel (rgb(none 0 0)) is undefined here and means 0 (CSS Color 4, 4.4).
  return within(rgb.r ?? 0) && within(rgb.g ?? 0) && within(rgb.b ?? 0);
}

/** The colour in sRGB: clamped when only float noise lies outside, gamut-mapped otherwise. */
export function toSrgb(color: Color): Rgb {
  return inSrgb(color) ? clampRgb(toRgb(color)) : gamutMap(color);
}
const toHsl = converter('hsl');
const toHwb = converter('hwb');
const toLab = converter('lab');
const toLch = converter('lch');
const toOklab = converter('oklab');
const toOklch = converter('oklch');

function num(value: number | undefined, digits: number): string {
  if (value === undefined || Number.isNaN(value)) return '0';
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** Hue in [0, 360); greys (`grey` true: no chroma at the written precision) are written as 0. */
function hue(value: number | undefined, grey = false): string {
  if (grey || value === undefined || !Number.isFinite(value)) return '0';
  const text = num(((value % 360) + 360) % 360, 2);
  return text === '360' ? '0' : text;
}

function pct(value: number | undefined, digits = 2): string {
  return `${num((value ?? 0) * 100, digits)}%`;
}

function alpha(color: Color): string {
  return color.alpha === undefined || color.alpha >= 1 ? '' : ` / ${num(color.alpha, 3)}`;
}

// culori's formatCss writes full float precision; these write rounded modern CSS syntax.
const writers: Record<FormatName, (color: Color) => string> = {
  hex: (c) => {
    const rgb = toSrgb(c);
    return rgb.alpha === undefined || rgb.alpha >= 1 ? formatHex(rgb) : formatHex8(rgb);
  },
  rgb: (c) => formatRgb(toSrgb(c)),
  hsl: (c) => {
    const v = toHsl(toSrgb(c));
    return `hsl(${hue(v.h, pct(v.s) === '0%')} ${pct(v.s)} ${pct(v.l)}${alpha(v)})`;
  },
  hwb: (c) => {
    const v = toHwb(toSrgb(c));
    return `hwb(${hue(v.h, v.w + v.b >= 1 - 1e-6)} ${pct(v.w)} ${pct(v.b)}${alpha(v)})`;
  },
  lab: (c) => {
    const v = toLab(c);
    return `lab(${num(v.l, 2)} ${num(v.a, 2)} ${num(v.b, 2)}${alpha(v)})`;
  },
  lch: (c) => {
    const v = toLch(c);
    return `lch(${num(v.l, 2)} ${num(v.c, 2)} ${hue(v.h, num(v.c, 2) === '0')}${alpha(v)})`;
  },
  oklab: (c) => {
    const v = toOklab(c);
    return `oklab(${pct(v.l)} ${num(v.a, 4)} ${num(v.b, 4)}${alpha(v)})`;
  },
  oklch: (c) => {
    const v = toOklch(c);
    return `oklch(${pct(v.l)} ${num(v.c, 4)} ${hue(v.h, num(v.c, 4) === '0')}${alpha(v)})`;
  },
};

/**
 * CSS text of a colour in one format. hex, rgb, hsl and hwb only describe sRGB, so the
 * colour is gamut-mapped first; lab, lch, oklab and oklch keep wider-gamut colours exact.
 */
export function formatAs(color: Color, format: FormatName): string {
  return writers[format](color);
}

/** Ratio cut (not rounded) to 2 decimals: 4.4996 must read 4.49, a fail at AA, not 4.5. */
function truncate(ratio: number): number {
  return Math.floor(ratio * 100 + 1e-9) / 100;
}

/**
 * WCAG 2.x contrast ratios (L1 + 0.05) / (L2 + 0.05) against white and black text (1 to 21).
 * Computed on the colour as its hex writes it (8-bit sRGB), so the ratio is the one a
 * checker gives for the hex a user copies; a translucent colour is taken as opaque.
 */
export function contrast(color: Color): { white: number; black: number } {
  const hex = formatHex(toSrgb(color));
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  const y = relativeLuminance(r, g, b);
  return { white: truncate(luminanceContrast(1, y)), black: truncate(luminanceContrast(y, 0)) };
}
