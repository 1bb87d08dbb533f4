import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['svg', 'png', 'utf8'] as const;
/** Error-correction levels, lowest first. */
export const LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type Level = (typeof LEVELS)[number];
/** The most characters any QR code holds (digits only, version 40, level L). */
export const MAX_DATA_CHARS = 7089;
export const DEFAULT_SIZE = 256;
export const MIN_SIZE = 64;
export const MAX_SIZE = 2048;

/** The result of every format (MCP outputSchema). */
const OUTPUT = {
  type: 'object',
  properties: {
    format: { type: 'string', enum: [...MODES], description: 'The output format' },
    version: { type: 'integer', minimum: 1, maximum: 40, description: 'QR version (size class) chosen' },
    errorCorrection: { type: 'string', enum: [...LEVELS], description: 'Error-correction level' },
    modules: {
      type: 'integer',
      minimum: 21,
      maximum: 177,
      description: 'Modules per side, quiet zone excluded',
    },
    margin: { type: 'integer', minimum: 0, description: 'Quiet zone, in modules, on each side' },
    data: {
      type: 'string',
      description:
        'svg: SVG text; png: a data:image/png;base64 URL; utf8: the code drawn with block characters',
    },
    size: {
      type: ['integer', 'null'],
      minimum: MIN_SIZE,
      maximum: MAX_SIZE,
      description: 'Image width and height in pixels; null for utf8',
    },
    mimeType: {
      type: 'string',
      enum: ['image/svg+xml', 'image/png', 'text/plain; charset=utf-8'],
      description: 'Media type of data',
    },
  },
  required: ['format', 'version', 'errorCorrection', 'modules', 'margin', 'data', 'size', 'mimeType'],
  additionalProperties: false,
};

export default defineTool({
  id: 'qr-code',
  name: 'QR Code Generator',
  description:
    'Encodes text or a URL as a QR code: SVG, PNG (data URL) or UTF-8 block characters, with a chosen error-correction level and size.',
  category: 'devtools',
  icon: 'qr-code',
  keywords: ['qr', 'qr code', 'qrcode', 'barcode', 'svg', 'png', 'generator', 'url'],
  tags: ['image', 'encoding', 'qr'],
  riskClass: 'L',
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 4096, timeoutMs: 2000 },
  modes: [...MODES],
  modeField: 'format',
  fields: { a: 'data', b: 'errorCorrection', c: 'size' },
  input: {
    type: 'object',
    properties: {
      data: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_DATA_CHARS,
        description: 'Text or URL to encode (UTF-8)',
      },
      errorCorrection: {
        type: 'string',
        enum: [...LEVELS],
        default: 'M',
        description: 'Error-correction level: L (7%), M (15%), Q (25%), H (30%)',
      },
      size: {
        type: 'integer',
        minimum: MIN_SIZE,
        maximum: MAX_SIZE,
        default: DEFAULT_SIZE,
        description: 'Width and height of the image in pixels (svg and png)',
      },
    },
    required: ['data'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    data: 'Text or URL to encode, as UTF-8. Capacity depends on the level: up to 2331 bytes at M, 1273 at H',
    errorCorrection:
      'Error-correction level L, M (default), Q or H; higher survives more damage but holds less data',
    size: `Image width and height in pixels, ${MIN_SIZE} to ${MAX_SIZE} (default ${DEFAULT_SIZE}), quiet zone included; ignored for utf8`,
    format:
      'Output: svg (default; SVG text), png (data:image/png;base64 URL) or utf8 (text drawn with block characters)',
  },
  endpoints: [
    {
      path: '/api/qr-code/',
      methods: ['GET', 'POST'],
      summary: 'Generate a QR code as SVG, PNG or UTF-8 text',
    },
  ],
  faqs: [
    {
      question: 'How much data fits?',
      answer:
        'At most 2953 bytes at level L, 2331 at M, 1663 at Q and 1273 at H (more when the data is only digits, upper-case letters, space and $%*+-./:, the most when it is digits only). Longer data is refused with INVALID_INPUT saying the limit.',
    },
    {
      question: 'Is there a quiet zone?',
      answer: 'Yes: the standard 4-module margin is included in the requested size.',
    },
    {
      question: 'Which version is used?',
      answer:
        'The smallest QR version (1 to 40) that holds the data at the chosen level; it is returned as version.',
    },
  ],
  howTo: [
    { title: 'Give the data', description: 'Pass the text or URL as `data` (generic: `a`).' },
    {
      title: 'Choose level and size',
      description: 'Optionally set `errorCorrection` (`b`: L M Q H) and `size` in pixels (`c`).',
    },
    { title: 'Pick the format', description: 'Set `format` (`mode`) to svg, png or utf8.' },
  ],
  relatedTools: ['color-palette', 'api-header-builder'],
  deterministic: true,
});
