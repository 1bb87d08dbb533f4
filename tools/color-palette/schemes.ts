import type { Oklch } from 'culori';
import { ToolInputError } from '#tool-kit';

/** Hue offsets (degrees, OKLCH) of the key colours of the hue-rotation schemes. */
const KEY_HUES: Record<string, number[]> = {
  complementary: [0, 180],
  triadic: [0, 120, 240],
  tetradic: [0, 90, 180, 270],
  'split-complementary': [0, 150, 210],
};
/** Below this OKLCH chroma a colour reads as grey and its hue means nothing. */
export const ACHROMATIC_CHROMA = 0.002;
/** Lightness range monochromatic palettes spread over (widened to include the base). */
const MONO_MIN_L = 0.15;
const MONO_MAX_L = 0.95;

export interface Palette {
  colors: Oklch[];
  /** Index of the base colour in `colors`. */
  baseIndex: number;
}

function lch(l: number, c: number, h: number): Oklch {
  return { mode: 'oklch', l: Math.min(1, Math.max(0, l)), c: Math.max(0, c), h: ((h % 360) + 360) % 360 };
}

/** Base ± steps of 30° (narrower past 5 colours so the palette stays within about ±60°), by hue. */
function analogous(base: Oklch, hue: number, count: number): Palette {
  const step = count <= 5 ? 30 : 120 / (count - 1);
  const offsets: number[] = [];
  for (let i = 0; i < count; i++) offsets.push(i % 2 === 1 ? Math.ceil(i / 2) : -i / 2);
  offsets.sort((x, y) => x - y);
  const colors = offsets.map((k) => lch(base.l, base.c, hue + k * step));
  return { colors, baseIndex: offsets.indexOf(0) };
}

/**
 * The scheme's key hues first (colors[1] is the complement, etc.); further colours
 * cycle through the key hues again, alternately lighter and darker (evenly spaced
 * towards white and black so they never repeat).
 */
function keyHues(scheme: string, offsets: number[], base: Oklch, hue: number, count: number): Palette {
  if (count < offsets.length) {
    throw new ToolInputError(
      `scheme '${scheme}' has ${offsets.length} key colours; count must be at least ${offsets.length}`,
    );
  }
  const rounds = Math.ceil(count / offsets.length) - 1;
  const lighterSteps = Math.ceil(rounds / 2);
  const darkerSteps = Math.floor(rounds / 2);
  const colors: Oklch[] = [];
  for (let i = 0; i < count; i++) {
    const round = Math.floor(i / offsets.length);
    const h = hue + offsets[i % offsets.length]!;
    let l = base.l;
    if (round % 2 === 1) l = base.l + ((1 - base.l) * Math.ceil(round / 2)) / (lighterSteps + 1);
    else if (round > 0) l = base.l * (1 - round / 2 / (darkerSteps + 1));
    colors.push(lch(l, base.c, h));
  }
  return { colors, baseIndex: 0 };
}

/** Same hue and chroma, lightness spread dark → light with the base in place. */
function monochromatic(base: Oklch, hue: number, count: number): Palette {
  const low = Math.min(MONO_MIN_L, base.l);
  const high = Math.max(MONO_MAX_L, base.l);
  const below = base.l - low;
  const darker = Math.round(((count - 1) * below) / (high - low));
  const lighter = count - 1 - darker;
  const colors: Oklch[] = [];
  for (let j = darker; j >= 1; j--) colors.push(lch(base.l - (below * j) / darker, base.c, hue));
  colors.push(lch(base.l, base.c, hue));
  for (let j = 1; j <= lighter; j++) colors.push(lch(base.l + ((high - base.l) * j) / lighter, base.c, hue));
  return { colors, baseIndex: darker };
}

/** Mixes with black (shades) or white (tints) in OKLab in even steps: L moves, C shrinks, hue stays. */
function mix(base: Oklch, hue: number, count: number, toward: 0 | 1): Palette {
  const colors: Oklch[] = [];
  for (let i = 0; i < count; i++) {
    const t = i / count;
    colors.push(lch(base.l + (toward - base.l) * t, base.c * (1 - t), hue));
  }
  return { colors, baseIndex: 0 };
}

/** The palette of `scheme` around `base` (OKLCH), `count` colours, before gamut mapping. */
export function buildPalette(scheme: string, base: Oklch, count: number): Palette {
  const hue = base.h ?? 0;
  const offsets = KEY_HUES[scheme];
  if (offsets) return keyHues(scheme, offsets, base, hue, count);
  if (scheme === 'analogous') return analogous(base, hue, count);
  if (scheme === 'monochromatic') return monochromatic(base, hue, count);
  if (scheme === 'shades') return mix(base, hue, count, 0);
  if (scheme === 'tints') return mix(base, hue, count, 1);
  // The service only runs the modes of tool.ts: another scheme is a bug, not bad input.
  throw new Error(`scheme '${scheme}' has no palette`);
}
