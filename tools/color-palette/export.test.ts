import { Ajv } from 'ajv';
import { formatHex, formatHex8, parse } from 'culori';
import postcss, { type AtRule, type Declaration, type Rule } from 'postcss';
import { describe, expect, it } from 'vitest';
import { declaredCases, expectToolError, specOf } from '../_shared/test-helpers.js';
import { colorPalette } from './test-helpers.js';
import tool, { EXPORTS, SCHEMES } from './tool.js';

interface Exported {
  css?: string;
  tailwind?: string;
  'tailwind-v3'?: { theme: { extend: { colors: Record<string, unknown> } } };
  tokens?: Record<string, unknown>;
}
type WithExport = { colors?: { hex: string }[]; hex?: string; export?: Exported };

/**
 * The Design Tokens Format Module 2025.10 rules a colour token file must keep, with the Color
 * Module 2025.10's value: a token is an object with `$value`; names never start with `$` nor hold
 * `{`, `}` or `.`; a color `$value` is { colorSpace, components, alpha?, hex? }, for srgb three
 * components in [0, 1] (or "none"), alpha in [0, 1], hex a 6-digit CSS hex colour.
 */
const DTCG = {
  $id: 'dtcg-color-2025.10',
  definitions: {
    name: { type: 'string', not: { pattern: '^\\$|[{}.]' } },
    color: {
      type: 'object',
      properties: {
        colorSpace: {
          enum: [
            'srgb',
            'srgb-linear',
            'hsl',
            'hwb',
            'lab',
            'lch',
            'oklab',
            'oklch',
            'display-p3',
            'a98-rgb',
            'prophoto-rgb',
            'rec2020',
            'xyz-d65',
            'xyz-d50',
          ],
        },
        components: {
          type: 'array',
          minItems: 3,
          maxItems: 3,
          items: { anyOf: [{ type: 'number', minimum: 0, maximum: 1 }, { const: 'none' }] },
        },
        alpha: { type: 'number', minimum: 0, maximum: 1 },
        hex: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
      },
      required: ['colorSpace', 'components'],
      additionalProperties: false,
    },
    token: {
      type: 'object',
      properties: {
        $type: { const: 'color' },
        $value: { $ref: '#/definitions/color' },
        $description: { type: 'string' },
      },
      required: ['$value'],
      additionalProperties: false,
    },
    group: {
      type: 'object',
      propertyNames: { anyOf: [{ enum: ['$description', '$type'] }, { $ref: '#/definitions/name' }] },
      properties: { $description: { type: 'string' }, $type: { const: 'color' } },
      additionalProperties: {
        anyOf: [{ $ref: '#/definitions/token' }, { $ref: '#/definitions/group' }],
      },
      not: { required: ['$value'] },
    },
  },
  $ref: '#/definitions/group',
};
const validateTokens = new Ajv({ allErrors: true }).compile(DTCG);

/** The custom properties of one postcss container, in order. */
function customProperties(node: Rule | AtRule): [string, string][] {
  const out: [string, string][] = [];
  node.each((child) => {
    expect(child.type, 'only declarations').toBe('decl');
    out.push([(child as Declaration).prop, (child as Declaration).value]);
  });
  return out;
}

/** The colour of a CSS value as culori reads it, as hex (8 digits when translucent). */
function hexOf(value: string): string {
  const c = parse(value);
  if (!c) throw new Error(`culori cannot read ${value}`);
  return c.alpha !== undefined && c.alpha < 1 ? formatHex8(c) : formatHex(c);
}

/** Checks every format of one export against the colours it names; returns nothing. */
function checkExport(result: WithExport, prefix: string, single: boolean) {
  const hexes = single ? [result.hex!] : result.colors!.map((c) => c.hex);
  const names = single ? [prefix] : hexes.map((_, i) => `${prefix}-${i + 1}`);
  const exported = result.export!;
  // CSS: one :root rule of custom properties.
  const css = postcss.parse(exported.css!);
  expect(css.nodes).toHaveLength(1);
  const rule = css.first as Rule;
  expect(rule.type).toBe('rule');
  expect(rule.selector).toBe(':root');
  const props = customProperties(rule);
  expect(props.map(([p]) => p)).toEqual(names.map((n) => `--color-${n}`));
  expect(props.map(([, v]) => hexOf(v))).toEqual(hexes);
  // Tailwind v4: one @theme at-rule with the same custom properties.
  const tw = postcss.parse(exported.tailwind!);
  expect(tw.nodes).toHaveLength(1);
  const theme = tw.first as AtRule;
  expect(theme).toMatchObject({ type: 'atrule', name: 'theme', params: '' });
  expect(customProperties(theme)).toEqual(props);
  // Tailwind v3: a JSON-safe config object.
  const v3 = JSON.parse(JSON.stringify(exported['tailwind-v3'])) as Exported['tailwind-v3'];
  const colors = v3!.theme.extend.colors;
  expect(Object.keys(colors)).toEqual([prefix]);
  const values = single
    ? [colors[prefix] as string]
    : Object.values(colors[prefix] as Record<string, string>);
  if (!single) expect(Object.keys(colors[prefix] as object)).toEqual(hexes.map((_, i) => String(i + 1)));
  expect(values.map(hexOf)).toEqual(hexes);
  // DTCG tokens: valid by the rules, and each value the same colour.
  const tokens = JSON.parse(JSON.stringify(exported.tokens));
  expect(validateTokens(tokens), JSON.stringify(validateTokens.errors)).toBe(true);
  const group = tokens[prefix];
  const found = single ? [group] : hexes.map((_, i) => group[String(i + 1)]);
  found.forEach((token, i) => {
    const hex = hexes[i]!;
    expect(token.$type).toBe('color');
    const { components, alpha, hex: tokenHex } = token.$value;
    expect(tokenHex).toBe(hex.slice(0, 7));
    expect(formatHex({ mode: 'rgb', r: components[0], g: components[1], b: components[2] })).toBe(
      hex.slice(0, 7),
    );
    const wantAlpha = hex.length === 9 ? Number.parseInt(hex.slice(7), 16) / 255 : 1;
    expect(alpha).toBeCloseTo(wantAlpha, 3);
  });
}

describe('export: CSS custom properties, Tailwind v4 and v3, DTCG tokens', () => {
  const bases = ['#3b82f6', 'oklch(70% 0.4 150)', 'rebeccapurple'];

  it('every scheme exports parseable files that name the palette colours', async () => {
    let cases = 0;
    for (const scheme of SCHEMES) {
      for (const base of bases) {
        const r = (await colorPalette(
          { color: base, count: 5, export: 'all', prefix: 'brand-blue' },
          scheme,
        )) as WithExport;
        expect(Object.keys(r.export!)).toEqual([...EXPORTS]);
        checkExport(r, 'brand-blue', false);
        cases++;
      }
    }
    for (const color of ['#3b82f6', '#ff000080', 'color(display-p3 1 0 0)']) {
      const r = (await colorPalette({ color, export: 'all', prefix: 'accent' }, 'convert')) as WithExport;
      checkExport(r, 'accent', true);
      cases++;
    }
    expect(cases).toBe(declaredCases(import.meta.url, 'CSS and Tailwind v4 export'));
    expect(cases).toBe(declaredCases(import.meta.url, 'DTCG colour tokens'));
  });

  it('the token check has teeth: it refuses what DTCG forbids', () => {
    const token = { $type: 'color', $value: { colorSpace: 'srgb', components: [1, 0, 0], hex: '#ff0000' } };
    expect(validateTokens({ p: { 1: token } })).toBe(true);
    expect(validateTokens({ p: { 1: { ...token, $value: '#ff0000' } } })).toBe(false);
    expect(validateTokens({ p: { 1: { ...token, $value: { ...token.$value, hex: '#ff000080' } } } })).toBe(
      false,
    );
    expect(
      validateTokens({ p: { 1: { ...token, $value: { ...token.$value, components: [255, 0, 0] } } } }),
    ).toBe(false);
    expect(validateTokens({ 'p.q': token })).toBe(false);
    expect(validateTokens({ $p: token })).toBe(false);
  });

  it('returns only the formats asked for, in a fixed order, and nothing without export', async () => {
    const r = (await colorPalette({ color: 'red', export: 'tokens, css css' }, 'shades')) as WithExport;
    expect(Object.keys(r.export!)).toEqual(['css', 'tokens']);
    expect(r.export!.css).toContain('--color-palette-1: #ff0000;');
    expect(r.export!.tokens).toHaveProperty(['palette', '$description', 'length']);
    expect((await colorPalette({ color: 'red' }, 'shades')) as WithExport).not.toHaveProperty('export');
    expect((await colorPalette({ color: 'red', export: '' }, 'convert')) as WithExport).not.toHaveProperty(
      'export',
    );
    const tw = (await colorPalette({ color: 'red', export: 'tailwind-v3' }, 'convert')) as WithExport;
    expect(tw.export).toEqual({ 'tailwind-v3': { theme: { extend: { colors: { palette: '#ff0000' } } } } });
  });

  it('refuses an unknown format and an unsafe prefix with a short, clear message', async () => {
    const long = 'x'.repeat(5000);
    const refusals: [Record<string, unknown>, string, string?][] = [
      [{ export: 'scss' }, 'UNSUPPORTED_OPTION', "export format 'scss' is not supported"],
      [{ export: 'css,json' }, 'UNSUPPORTED_OPTION', 'tailwind-v3'],
      [{ export: 'CSS' }, 'UNSUPPORTED_OPTION', 'css'],
      [{ export: 'css'.repeat(40) }, 'INVALID_INPUT', '100'],
      [{ export: ['css'] }, 'INVALID_INPUT', 'export must be string'],
      [{ export: 'css', prefix: 'Brand' }, 'INVALID_INPUT', "prefix 'Brand' is not a safe name"],
      [{ export: 'css', prefix: '1st' }, 'INVALID_INPUT', 'starting with a letter'],
      [{ export: 'css', prefix: 'a--b' }, 'INVALID_INPUT', 'single hyphens'],
      [{ export: 'css', prefix: 'a-' }, 'INVALID_INPUT', 'safe name'],
      [{ export: 'css', prefix: 'a b' }, 'INVALID_INPUT', 'safe name'],
      [{ export: 'css', prefix: '}{--x:url(x)' }, 'INVALID_INPUT', 'safe name'],
      [{ export: 'css', prefix: 'a.b' }, 'INVALID_INPUT', 'safe name'],
      [{ export: 'css', prefix: '' }, 'INVALID_INPUT', 'prefix must NOT have fewer than 1 characters'],
      [{ export: 'css', prefix: long }, 'INVALID_INPUT', '32'],
      [{ prefix: '$bad' }, 'INVALID_INPUT', 'safe name'],
    ];
    for (const [fields, code, text] of refusals) {
      for (const mode of ['convert', 'triadic']) {
        const run = colorPalette({ color: '#3b82f6', ...fields }, mode);
        const err = await expectToolError(run, code as never, text);
        expect((err as Error).message.length, JSON.stringify(fields).slice(0, 80)).toBeLessThan(300);
      }
    }
  });

  it('declares export and prefix in the input schema the MCP tool and the form are built from', () => {
    const properties = specOf(tool).input.properties as Record<string, { type: string; maxLength: number }>;
    expect(properties.export).toMatchObject({ type: 'string', maxLength: 100 });
    expect(properties.prefix).toMatchObject({ type: 'string', maxLength: 32 });
    // No schema default: the page form would send it with every run; run.ts applies it with export.
    expect(properties.prefix).not.toHaveProperty('default');
    expect(specOf(tool).semanticFields.export).toContain('DTCG 2025.10');
    expect(specOf(tool).semanticFields.prefix).toContain('lower-case');
  });
});
