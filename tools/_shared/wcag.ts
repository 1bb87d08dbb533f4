/**
 * WCAG 2.x contrast, shared by the tools that report or enforce it (color-palette's ratios,
 * qr-code's colour rule): one formula, so the two can never disagree on a pair.
 */

/** The linear value of an 8-bit sRGB channel (0-255). */
function channel(value: number): number {
  const c = value / 255;
  // WCAG 2.x writes 0.03928, the sRGB standard 0.04045: no 8-bit value lies between them.
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2.x relative luminance of an opaque 8-bit sRGB colour: 0 (black) to 1 (white). */
export function relativeLuminance(r: number, g: number, b: number): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05) of two relative luminances, lighter over darker: 1 to 21. */
export function luminanceContrast(a: number, b: number): number {
  const [hi, lo] = a >= b ? [a, b] : [b, a];
  return (hi + 0.05) / (lo + 0.05);
}
