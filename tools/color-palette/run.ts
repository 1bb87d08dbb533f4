import type { Color } from 'culori';
import type { ToolInput } from '#tool-kit';
import { contrast, type FormatName, formatAs, inSrgb, toSrgb } from './format.js';
import { parseColor } from './parse-color.js';
import { ACHROMATIC_CHROMA, buildPalette } from './schemes.js';
import { FORMATS } from './tool.js';

export interface PaletteColor {
  hex: string;
  rgb: string;
  hsl: string;
  oklch: string;
  contrast: { white: number; black: number };
  /** The text colour with the higher contrast on this colour. */
  textColor: 'white' | 'black';
}

function describe(color: Color): PaletteColor {
  const ratios = contrast(color);
  return {
    hex: formatAs(color, 'hex'),
    rgb: formatAs(color, 'rgb'),
    hsl: formatAs(color, 'hsl'),
    oklch: formatAs(color, 'oklch'),
    contrast: ratios,
    textColor: ratios.white >= ratios.black ? 'white' : 'black',
  };
}

function convert(input: ToolInput) {
  const { color } = parseColor(input.color as string);
  const format = input.format as FormatName;
  const formats = Object.fromEntries(FORMATS.map((f) => [f, formatAs(color, f as FormatName)]));
  const value = formats[format]!;
  return {
    format,
    output: value,
    hex: formats.hex!,
    [format]: value,
    formats,
    alpha: color.alpha ?? 1,
    /** False when the colour lies outside sRGB: hex, rgb, hsl and hwb are then gamut-mapped. */
    inGamut: inSrgb(color),
    contrast: contrast(color),
  };
}

function generate(input: ToolInput, scheme: string) {
  const { color, oklch } = parseColor(input.color as string);
  const count = input.count as number;
  // Palettes are opaque: contrast ratios and swatches are meaningless with transparency.
  const base = { ...oklch, alpha: undefined };
  const palette = buildPalette(scheme, base, count);
  const notes: string[] = [];
  if ((oklch.c ?? 0) < ACHROMATIC_CHROMA && !['shades', 'tints', 'monochromatic'].includes(scheme)) {
    notes.push('The base colour is a grey (no hue), so hue rotation gives greys of the same lightness.');
  }
  if (!inSrgb(base)) notes.push('The base colour is outside sRGB; it and the palette are gamut-mapped.');
  if (oklch.alpha !== undefined && oklch.alpha < 1)
    notes.push('Transparency is dropped: palettes are opaque.');
  return {
    scheme,
    count,
    base: describe(toSrgb({ ...color, alpha: undefined })),
    baseIndex: palette.baseIndex,
    colors: palette.colors.map((c) => describe(toSrgb(c))),
    notes,
  };
}

/** Input as the schema in tool.ts passed it: a colour string, count in range, a known format. */
export default async function run(input: ToolInput, mode: string) {
  return mode === 'convert' ? convert(input) : generate(input, mode);
}
