import { defineTool } from '../../src/shared/tool-def.js';

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
/** Target formats of the convert mode. */
export const FORMATS = ['hex', 'rgb', 'hsl', 'hwb', 'lab', 'lch', 'oklab', 'oklch'];
export const MAX_COLOR_CHARS = 256;
export const MAX_COUNT = 20;
export const DEFAULT_COUNT = 5;

export default defineTool({
  id: 'color-palette',
  name: 'Color Palette Generator',
  description:
    'Converts any CSS colour (hex, rgb, hsl, hwb, lab, lch, oklab, oklch, named) between formats, and generates palettes (analogous, complementary, triadic, tetradic, split-complementary, monochromatic, shades, tints) computed in OKLCH and gamut-mapped to sRGB, with WCAG contrast ratios.',
  category: 'devtools',
  icon: 'palette',
  keywords: [
    'color',
    'colour',
    'palette',
    'hex',
    'rgb',
    'hsl',
    'oklch',
    'complementary',
    'contrast',
    'wcag',
    'converter',
  ],
  tags: ['color', 'design', 'css'],
  riskClass: 'L',
  policy: { limit: 120, burst: 30, windowSec: 60, inputMaxBytes: 4096, timeoutMs: 1000 },
  modes: ['convert', ...SCHEMES],
  modeField: 'scheme',
  fields: { a: 'color', b: 'count', c: null },
  fieldsByMode: { convert: { b: 'format' } },
  input: {
    type: 'object',
    properties: {
      color: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_COLOR_CHARS,
        description:
          'Any CSS colour: #hex (the # may be left out), rgb(), hsl(), hwb(), lab(), lch(), oklab(), oklch(), color(), or a name',
      },
      count: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_COUNT,
        default: DEFAULT_COUNT,
        description: 'Number of colours in the palette (generate)',
      },
      format: {
        type: 'string',
        enum: FORMATS,
        default: 'hex',
        description: 'Target format (convert)',
      },
    },
    required: ['color'],
    additionalProperties: false,
  },
  semanticFields: {
    color:
      'The base colour, any CSS colour string: #ff0000, ff0000, rgb(255 0 0), hsl(0 100% 50%), oklch(62.8% 0.2577 29.23), rebeccapurple, ...',
    count: `Generate only: number of colours, 1 to ${MAX_COUNT} (default ${DEFAULT_COUNT}); hue schemes need at least their key colours (complementary 2, triadic and split-complementary 3, tetradic 4)`,
    format: `Convert only: target format, one of ${FORMATS.join(', ')} (default hex); every format is also returned in formats`,
    scheme: `Generate only: ${SCHEMES.join(', ')} (default analogous). Hues rotate in OKLCH; shades and tints mix with black and white in OKLab`,
  },
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
  faqs: [
    {
      question: 'Why OKLCH?',
      answer:
        'OKLCH is perceptually uniform: rotating its hue or stepping its lightness changes the colour evenly, unlike HSL. Colours outside sRGB are gamut-mapped before hex, rgb, hsl and hwb are written: OKLCH chroma is reduced until the colour fits, keeping its lightness and hue.',
    },
    {
      question: 'What are the contrast numbers?',
      answer:
        'WCAG 2 contrast ratios of each colour against white and black text, from 1 to 21; 4.5 or more passes AA for body text.',
    },
    {
      question: 'What about transparency?',
      answer:
        'convert keeps the alpha channel (8-digit hex, rgba(), `/ alpha`); generated palettes are opaque.',
    },
  ],
  howTo: [
    { title: 'Give a colour', description: 'Pass any CSS colour as `color` (generic: `a`).' },
    {
      title: 'Convert it',
      description: 'Call /convert/ with `format` (generic: mode convert, `b`), e.g. oklch.',
    },
    {
      title: 'Or generate a palette',
      description: 'Call /generate/ with `scheme` (generic: `mode`) and `count` (`b`), e.g. triadic and 6.',
    },
  ],
  relatedTools: ['qr-code', 'format-detective', 'html-markdown'],
});
