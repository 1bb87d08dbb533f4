import type { Color } from 'culori';
import type { ToolInput } from '#tool-kit';
import { APCA_VERSION, type ApcaContrast, apcaOn } from './apca.js';
import { checkPrefix, exportColors, parseExports } from './export.js';
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
  /** APCA Lc of white and black text on this colour. */
  apca: ApcaContrast;
}

/** The 8-bit channels of #rrggbb(aa), alpha dropped: contrast is of the opaque colour. */
function bytes(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** The export option's formats and prefix, checked before any work. */
function exportOptions(input: ToolInput) {
  return { formats: parseExports(input.export), prefix: checkPrefix(input.prefix) };
}

function describe(color: Color): PaletteColor {
  const ratios = contrast(color);
  const hex = formatAs(color, 'hex');
  return {
    hex,
    rgb: formatAs(color, 'rgb'),
    hsl: formatAs(color, 'hsl'),
    oklch: formatAs(color, 'oklch'),
    contrast: ratios,
    textColor: ratios.white >= ratios.black ? 'white' : 'black',
    apca: apcaOn(bytes(hex)),
  };
}

function convert(input: ToolInput) {
  const { color } = parseColor(input.color as string);
  const exports = exportOptions(input);
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
    apca: apcaOn(bytes(formats.hex!)),
    apcaVersion: APCA_VERSION,
    ...(exports.formats.length > 0 && {
      export: exportColors(
        exports.formats,
        exports.prefix,
        [formats.hex!],
        true,
        `converted from ${(input.color as string).trim()}`,
      ),
    }),
  };
}

function generate(input: ToolInput, scheme: string) {
  const { color, oklch } = parseColor(input.color as string);
  const count = input.count as number;
  const exports = exportOptions(input);
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
  const baseColor = describe(toSrgb({ ...color, alpha: undefined }));
  const colors = palette.colors.map((c) => describe(toSrgb(c)));
  return {
    scheme,
    count,
    base: baseColor,
    baseIndex: palette.baseIndex,
    colors,
    notes,
    apcaVersion: APCA_VERSION,
    ...(exports.formats.length > 0 && {
      export: exportColors(
        exports.formats,
        exports.prefix,
        colors.map((c) => c.hex),
        false,
        `${scheme} palette of ${count} from ${baseColor.hex}`,
      ),
    }),
  };
}

/** Input as the schema in tool.ts passed it: a colour string, count in range, a known format. */
export default async function run(input: ToolInput, mode: string) {
  return mode === 'convert' ? convert(input) : generate(input, mode);
}
