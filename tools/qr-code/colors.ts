/**
 * The module colours: hex parsing and the contrast rule. A code is printed or shown on
 * something light, so a colour with alpha is judged as it looks over white paper; the pair
 * must then keep dark darker than light (inverted codes are not read by many scanners) and
 * a WCAG 2 contrast ratio of at least MIN_CONTRAST.
 */
import { quote, ToolInputError } from '#tool-kit';
import { luminanceContrast, relativeLuminance } from '../_shared/wcag.js';

/** WCAG 2's minimum for graphical objects (success criterion 1.4.11), which a QR code is. */
export const MIN_CONTRAST = 3;
export const DEFAULT_DARK = '#000000';
export const DEFAULT_LIGHT = '#ffffff';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0-255 */
  a: number;
}

export interface Colors {
  dark: Rgba;
  light: Rgba;
  /** Lowercase #rrggbb, or #rrggbbaa when not opaque. */
  darkHex: string;
  lightHex: string;
  /** WCAG 2 contrast ratio over white, 1 to 21. */
  contrast: number;
}

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

export function parseHex(field: string, text: string): Rgba {
  if (!HEX.test(text)) {
    throw new ToolInputError(
      `${field} ${quote(text)} is not a hex colour; use #rgb, #rgba, #rrggbb or #rrggbbaa`,
    );
  }
  let hex = text.slice(1).toLowerCase();
  if (hex.length <= 4) hex = [...hex].map((c) => c + c).join('');
  if (hex.length === 6) hex += 'ff';
  const n = (i: number) => Number.parseInt(hex.slice(i, i + 2), 16);
  return { r: n(0), g: n(2), b: n(4), a: n(6) };
}

export function toHex(c: Rgba): string {
  const h = (v: number) => v.toString(16).padStart(2, '0');
  return `#${h(c.r)}${h(c.g)}${h(c.b)}${c.a === 255 ? '' : h(c.a)}`;
}

/** The opaque colour `c` shows over white (alpha compositing, rounded to 8 bits). */
export function overWhite(c: Rgba): Rgba {
  const mix = (v: number) => Math.round((v * c.a + 255 * (255 - c.a)) / 255);
  return { r: mix(c.r), g: mix(c.g), b: mix(c.b), a: 255 };
}

/** WCAG 2 relative luminance of an opaque colour, 0 (black) to 1 (white). */
function luminance(c: Rgba): number {
  return relativeLuminance(c.r, c.g, c.b);
}

/** WCAG 2 contrast ratio of two opaque colours, lighter over darker: 1 to 21. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  return luminanceContrast(luminance(a), luminance(b));
}

/** The module colours, or INVALID_INPUT saying the rule they break. */
export function checkColors(darkText: string, lightText: string): Colors {
  const dark = parseHex('dark', darkText);
  const light = parseHex('light', lightText);
  const shownDark = overWhite(dark);
  const shownLight = overWhite(light);
  const contrast = contrastRatio(shownDark, shownLight);
  const darkHex = toHex(dark);
  const lightHex = toHex(light);
  if (luminance(shownDark) > luminance(shownLight)) {
    throw new ToolInputError(
      `dark ${darkHex} is lighter than light ${lightHex}: many scanners do not read inverted codes; ` +
        'swap the two colours',
    );
  }
  if (contrast < MIN_CONTRAST) {
    throw new ToolInputError(
      `dark ${darkHex} and light ${lightHex} have a contrast ratio of ${contrast.toFixed(2)}:1 (as shown over white); ` +
        `a code needs at least ${MIN_CONTRAST}:1 (WCAG 2 contrast of graphical objects) to scan reliably`,
    );
  }
  return { dark, light, darkHex, lightHex, contrast };
}
