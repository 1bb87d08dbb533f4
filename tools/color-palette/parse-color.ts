import { type Color, clampRgb, converter, type Oklch, parse } from 'culori';
import { ToolInputError } from '#tool-kit';

const toOklch = converter('oklch');
/** A bare hex value (no `#`), common in query strings where `#` must be escaped as %23. */
const BARE_HEX = /^(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
/** CSS clamps these legacy sRGB functions to the sRGB cube at parse time (CSS Color 4, 5.1). */
const CLAMPED_AT_PARSE = new Set(['rgb', 'hsl', 'hwb']);

function channelsFinite(color: Color): boolean {
  for (const [key, value] of Object.entries(color)) {
    if (key === 'mode' || value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  }
  return true;
}

function quote(text: string): string {
  return text.length > 60 ? `'${text.slice(0, 60)}…'` : `'${text}'`;
}

/**
 * culori's parse, which throws on some junk instead of returning undefined (its tokenizer
 * reads past a lone `/`, as in '/0A', found by test/fuzz.test.ts): junk is junk either way.
 */
function parseOrNothing(text: string): Color | undefined {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

export interface ParsedColor {
  /** The colour as parsed (its own space: rgb, lab, p3, ...). */
  color: Color;
  /** The same colour in OKLCH; `h` is undefined for greys. */
  oklch: Oklch;
}

/** Parses one CSS colour string (its length is the input schema's); anything else is INVALID_INPUT naming the value. */
export function parseColor(value: string): ParsedColor {
  const text = value.trim();
  if (text === '') throw new ToolInputError('color is empty; give a CSS colour such as #ff0000 or red');
  const parsed = parseOrNothing(BARE_HEX.test(text) ? `#${text}` : text);
  if (!parsed || !channelsFinite(parsed)) {
    throw new ToolInputError(
      `color ${quote(text)} is not a CSS colour; use hex (#ff0000), rgb(), hsl(), hwb(), lab(), lch(), oklab(), oklch(), color() or a named colour`,
    );
  }
  const color = CLAMPED_AT_PARSE.has(parsed.mode) ? clampRgb(parsed) : parsed;
  const oklch = toOklch(color);
  if (!channelsFinite(oklch)) throw new ToolInputError(`color ${quote(text)} is out of any usable range`);
  return { color, oklch };
}
