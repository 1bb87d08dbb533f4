import { quote, ToolInputError, unsupported } from '#tool-kit';
import { DEFAULT_PREFIX, EXPORTS, MAX_PREFIX_CHARS } from './tool.js';

export type ExportName = (typeof EXPORTS)[number];

/** A DTCG 2025.10 colour value (Design Tokens Color Module): sRGB, components 0-1, 6-digit hex. */
interface DtcgColor {
  colorSpace: 'srgb';
  components: [number, number, number];
  alpha: number;
  hex: string;
}

/** One colour to export: its token name and its hex (#rrggbb or #rrggbbaa). */
export interface Named {
  name: string;
  hex: string;
}

/** Lower-case letters, digits and single inner hyphens, starting with a letter: safe as a CSS
 * custom property part, a Tailwind colour name, a JS key and a DTCG token name alike. */
const SAFE_NAME = /^[a-z](?:[a-z0-9]|-(?=[a-z0-9]))*$/;

/** The formats asked for, in a fixed order; an empty list when none. */
export function parseExports(value: unknown): ExportName[] {
  if (value === undefined) return [];
  const names = String(value)
    .split(/[\s,]+/)
    .filter((n) => n !== '');
  const wanted = new Set<ExportName>();
  for (const name of names) {
    if (name === 'all') for (const e of EXPORTS) wanted.add(e);
    else if ((EXPORTS as readonly string[]).includes(name)) wanted.add(name as ExportName);
    else throw unsupported('export format', name, [...EXPORTS, 'all']);
  }
  return EXPORTS.filter((e) => wanted.has(e));
}

export function checkPrefix(value: unknown): string {
  if (value === undefined) return DEFAULT_PREFIX;
  const prefix = String(value);
  if (!SAFE_NAME.test(prefix) || prefix.length > MAX_PREFIX_CHARS) {
    throw new ToolInputError(
      `prefix ${quote(prefix)} is not a safe name: use 1-${MAX_PREFIX_CHARS} lower-case letters, digits and single hyphens, starting with a letter (e.g. brand)`,
    );
  }
  return prefix;
}

/** 8-bit channel / 255, to 4 decimals: enough to give the same 8-bit value back. */
function dtcg(hex: string): DtcgColor {
  const byte = (i: number) => Number.parseInt(hex.slice(i, i + 2), 16);
  const unit = (v: number) => Math.round((v / 255) * 10000) / 10000;
  return {
    colorSpace: 'srgb',
    components: [unit(byte(1)), unit(byte(3)), unit(byte(5))],
    alpha: hex.length === 9 ? Math.round((byte(7) / 255) * 1000) / 1000 : 1,
    hex: hex.slice(0, 7),
  };
}

function declarations(colors: readonly Named[]): string {
  return colors.map((c) => `  --color-${c.name}: ${c.hex};`).join('\n');
}

/**
 * The colours in each asked format. A palette's colours are named `<prefix>-1` ... `<prefix>-n`
 * in palette order; convert's one colour is `<prefix>`.
 */
export function exportColors(
  formats: readonly ExportName[],
  prefix: string,
  colors: readonly string[],
  single: boolean,
  description: string,
): Record<string, unknown> {
  const named: Named[] = single
    ? [{ name: prefix, hex: colors[0]! }]
    : colors.map((hex, i) => ({ name: `${prefix}-${i + 1}`, hex }));
  const out: Record<string, unknown> = {};
  for (const format of formats) {
    if (format === 'css') out.css = `:root {\n${declarations(named)}\n}\n`;
    else if (format === 'tailwind') out.tailwind = `@theme {\n${declarations(named)}\n}\n`;
    else if (format === 'tailwind-v3') {
      const value = single ? colors[0]! : Object.fromEntries(colors.map((hex, i) => [String(i + 1), hex]));
      out['tailwind-v3'] = { theme: { extend: { colors: { [prefix]: value } } } };
    } else {
      const token = (hex: string) => ({ $type: 'color', $value: dtcg(hex) });
      out.tokens = single
        ? { [prefix]: { ...token(colors[0]!), $description: description } }
        : {
            [prefix]: {
              $description: description,
              ...Object.fromEntries(colors.map((hex, i) => [String(i + 1), token(hex)])),
            },
          };
    }
  }
  return out;
}
