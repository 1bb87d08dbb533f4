import { defineTool } from '#tool-kit';

/** Palette schemes, in the order the generate endpoint lists them (first = its default). */
export const SCHEMES = [
  'analogous',
  'complementary',
  'triadic',
  'tetradic',
  'split-complementary',
  'monochromatic',
  'shades',
  'tints',
];
/** Modes: convert, then the schemes (a mode is a scheme on the generate endpoint). */
export const MODES = ['convert', ...SCHEMES];
/** Target formats of the convert mode. */
export const FORMATS = ['hex', 'rgb', 'hsl', 'hwb', 'lab', 'lch', 'oklab', 'oklch'];
export const MAX_COLOR_CHARS = 256;
export const MAX_COUNT = 20;
export const DEFAULT_COUNT = 5;
/** Export formats (the `export` option): CSS custom properties, Tailwind v4 and v3, DTCG tokens. */
export const EXPORTS = ['css', 'tailwind', 'tailwind-v3', 'tokens'] as const;
export const DEFAULT_PREFIX = 'palette';
export const MAX_PREFIX_CHARS = 32;
export const MAX_EXPORT_CHARS = 100;
/** APCA bronze simple levels an Lc may reach. */
const APCA_LEVEL_VALUES = [90, 75, 60, 45, 30, 15, 0];

const ratios = {
  type: 'object',
  description: 'WCAG 2.x contrast ratios (1 to 21) against white and black text',
  properties: {
    white: { type: 'number', minimum: 1, maximum: 21, description: 'Against white text' },
    black: { type: 'number', minimum: 1, maximum: 21, description: 'Against black text' },
  },
  required: ['white', 'black'],
  additionalProperties: false,
};
const lcReading = (description: string) => ({
  type: 'object',
  description,
  properties: {
    lc: {
      type: 'number',
      minimum: -108,
      maximum: 106,
      description:
        'Signed APCA Lc, cut toward zero to 1 decimal: positive dark text on light, negative light on dark',
    },
    level: {
      type: 'integer',
      enum: APCA_LEVEL_VALUES,
      description: 'APCA bronze simple level reached by |Lc|: 90, 75, 60, 45, 30, 15 or 0',
    },
    use: { type: 'string', description: 'What that level is good for, in words' },
  },
  required: ['lc', 'level', 'use'],
  additionalProperties: false,
});
const apca = {
  type: 'object',
  description: 'APCA lightness contrast (Lc, version in apcaVersion) of white and black text on the colour',
  properties: {
    white: lcReading('White text on the colour (negative: light on dark)'),
    black: lcReading('Black text on the colour (positive: dark on light)'),
    textColor: { type: 'string', enum: ['white', 'black'], description: 'Text colour with the larger |Lc|' },
  },
  required: ['white', 'black', 'textColor'],
  additionalProperties: false,
};
const css = (description: string) => ({ type: 'string', description });
const HEX = { type: 'string', pattern: '^#[0-9a-f]{6}([0-9a-f]{2})?$', description: '#rrggbb(aa)' };
const swatch = {
  type: 'object',
  properties: {
    hex: HEX,
    rgb: css('rgb()'),
    hsl: css('hsl()'),
    oklch: css('oklch()'),
    contrast: ratios,
    textColor: { type: 'string', enum: ['white', 'black'], description: 'Text colour with more contrast' },
    apca,
  },
  required: ['hex', 'rgb', 'hsl', 'oklch', 'contrast', 'textColor', 'apca'],
  additionalProperties: false,
};

/**
 * The result of every mode (MCP outputSchema): convert gives format, output, hex, the target
 * format's key, formats, alpha, inGamut and contrast; a scheme gives scheme to notes.
 */
const OUTPUT = {
  type: 'object',
  properties: {
    format: { type: 'string', enum: FORMATS, description: 'convert: the target format' },
    output: css('convert: the colour in the target format'),
    hex: HEX,
    rgb: css('convert to rgb: same as output'),
    hsl: css('convert to hsl: same as output'),
    hwb: css('convert to hwb: same as output'),
    lab: css('convert to lab: same as output'),
    lch: css('convert to lch: same as output'),
    oklab: css('convert to oklab: same as output'),
    oklch: css('convert to oklch: same as output'),
    formats: {
      type: 'object',
      description: 'convert: the colour in every format',
      properties: Object.fromEntries(FORMATS.map((f) => [f, { type: 'string' }])),
      required: FORMATS,
      additionalProperties: false,
    },
    alpha: { type: 'number', minimum: 0, maximum: 1, description: 'convert: opacity, 0 to 1' },
    inGamut: { type: 'boolean', description: 'convert: false when outside sRGB (hex, rgb, hsl, hwb mapped)' },
    contrast: ratios,
    apca: {
      ...apca,
      description: 'convert: APCA Lc of white and black text on the colour (as its hex, opaque)',
    },
    apcaVersion: {
      type: 'string',
      enum: ['APCA-W3 0.0.98G-4g'],
      description: 'The APCA version and constants every Lc follows',
    },
    export: {
      type: 'object',
      description: 'The colours in each format asked for with the export option',
      properties: {
        css: css('CSS custom properties: :root { --color-<prefix>-<n>: #hex; }'),
        tailwind: css('Tailwind CSS v4 theme: @theme { --color-<prefix>-<n>: #hex; }'),
        'tailwind-v3': {
          type: 'object',
          description: 'Tailwind CSS v3 config object: { theme: { extend: { colors: { <prefix>: ... } } } }',
          properties: { theme: { type: 'object' } },
          required: ['theme'],
          additionalProperties: false,
        },
        tokens: {
          type: 'object',
          description: 'W3C Design Tokens (DTCG 2025.10) JSON: color tokens with srgb components and hex',
        },
      },
      minProperties: 1,
      additionalProperties: false,
    },
    scheme: { type: 'string', enum: SCHEMES, description: 'palette: the scheme' },
    count: { type: 'integer', minimum: 1, maximum: MAX_COUNT, description: 'palette: number of colours' },
    base: { ...swatch, description: 'palette: the base colour (opaque, in sRGB)' },
    baseIndex: { type: 'integer', minimum: 0, description: 'palette: index of the base colour in colors' },
    colors: { type: 'array', maxItems: MAX_COUNT, items: swatch, description: 'palette: the colours' },
    notes: { type: 'array', items: { type: 'string' }, description: 'palette: greys, gamut mapping, alpha' },
  },
  anyOf: [
    {
      required: ['format', 'output', 'hex', 'formats', 'alpha', 'inGamut', 'contrast', 'apca', 'apcaVersion'],
    },
    { required: ['scheme', 'count', 'base', 'baseIndex', 'colors', 'notes', 'apcaVersion'] },
  ],
  additionalProperties: false,
};

export default defineTool({
  id: 'color-palette',
  title: 'Color Palette Generator',
  description:
    'Converts any CSS colour (hex, rgb, hsl, hwb, lab, lch, oklab, oklch, named) between formats, and generates palettes (analogous, complementary, triadic, tetradic, split-complementary, monochromatic, shades, tints) computed in OKLCH and gamut-mapped to sRGB, with WCAG 2 contrast ratios and APCA Lc, and exports them as CSS custom properties, a Tailwind theme or W3C design tokens.',
  input: {
    type: 'object',
    properties: {
      color: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_COLOR_CHARS,
        description:
          'The base colour, any CSS colour string: #ff0000, ff0000, rgb(255 0 0), hsl(0 100% 50%), oklch(62.8% 0.2577 29.23), rebeccapurple, ...',
      },
      count: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_COUNT,
        default: DEFAULT_COUNT,
        description: `Generate only: number of colours, 1 to ${MAX_COUNT} (default ${DEFAULT_COUNT}); hue schemes need at least their key colours (complementary 2, triadic and split-complementary 3, tetradic 4)`,
      },
      format: {
        type: 'string',
        enum: FORMATS,
        default: 'hex',
        description: `Convert only: target format, one of ${FORMATS.join(', ')} (default hex); every format is also returned in formats`,
      },
      export: {
        type: 'string',
        maxLength: MAX_EXPORT_CHARS,
        description: `Optional: also return the colours as ${EXPORTS.join(', ')} (or all), a comma-separated list: css is :root custom properties, tailwind a Tailwind v4 @theme block, tailwind-v3 a theme.extend.colors config object, tokens W3C Design Tokens (DTCG 2025.10) JSON`,
      },
      prefix: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_PREFIX_CHARS,
        // No schema default: run.ts applies it with export only, and a page form would send it always.
        description: `With export: the colour name, ${MAX_PREFIX_CHARS} characters at most, lower-case letters, digits and single hyphens, starting with a letter (default ${DEFAULT_PREFIX}); palette colours are <prefix>-1 ... <prefix>-n, convert's colour is <prefix>`,
      },
    },
    required: ['color'],
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { limit: 120, burst: 30, inputMaxBytes: 4096, timeoutMs: 1000 },
  modes: {
    field: 'scheme',
    description: `Generate only: ${SCHEMES.join(', ')} (default analogous). Hues rotate in OKLCH; shades and tints mix with black and white in OKLab`,
    each: {
      convert: { slots: { b: 'format' }, path: 'convert', summary: 'Convert a CSS colour to another format' },
      analogous: {},
      complementary: {},
      triadic: {},
      tetradic: {},
      'split-complementary': {},
      monochromatic: {},
      shades: {},
      tints: {},
    },
  },
  slots: { a: 'color', b: 'count' },
  endpoints: [
    {
      path: '/api/color-palette/generate/',
      methods: ['GET', 'POST'],
      summary: 'Generate a colour palette from a base colour',
      modes: SCHEMES,
    },
    {
      path: '/api/color-palette/convert/',
      methods: ['GET', 'POST'],
      summary: 'Convert a CSS colour to another format',
      mode: 'convert',
    },
  ],
  deterministic: true,
});
