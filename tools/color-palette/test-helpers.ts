import { converter, type Oklch, parse } from 'culori';
import { toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

/** Test helpers shared by the color-palette test files. */
export const toOklch = converter('oklch');

export type Result = Record<string, unknown> & {
  hex: string;
  formats: Record<string, string>;
  contrast: { white: number; black: number };
};
export type Swatch = {
  hex: string;
  rgb: string;
  hsl: string;
  oklch: string;
  contrast: { white: number; black: number };
};
export type Palette = {
  scheme: string;
  count: number;
  base: Swatch;
  baseIndex: number;
  colors: Swatch[];
  notes: string[];
};

/** The tool as the service runs it: input through its schema first. */
export const colorPalette = toolRunner(tool, run);
export const convert = async (color: unknown, format?: string) =>
  (await colorPalette({ color, format }, 'convert')) as Result;
export const generate = async (color: unknown, scheme: string, count?: unknown) =>
  (await colorPalette({ color, count }, scheme)) as Palette;

/** OKLCH of a CSS string written by the tool, read back with culori (the oracle). */
export function lchOf(css: string): Oklch {
  const parsed = parse(css);
  if (!parsed) throw new Error(`unparseable ${css}`);
  return toOklch(parsed);
}

/** Hue of b minus hue of a, in [0, 360). */
export function hueDiff(a: string, b: string): number {
  return ((lchOf(b).h ?? 0) - (lchOf(a).h ?? 0) + 360) % 360;
}
