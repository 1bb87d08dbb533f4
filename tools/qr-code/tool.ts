import { defineTool } from '../../src/shared/tool-def.js';

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
  modes: ['svg', 'png', 'utf8'],
  modeField: 'format',
  fields: { a: 'data', b: 'errorCorrection', c: 'size' },
  input: {
    type: 'object',
    properties: {
      data: { type: 'string', minLength: 1, maxLength: 7089, description: 'Text or URL to encode (UTF-8)' },
      errorCorrection: {
        type: 'string',
        enum: ['L', 'M', 'Q', 'H'],
        default: 'M',
        description: 'Error-correction level: L (7%), M (15%), Q (25%), H (30%)',
      },
      size: {
        type: 'integer',
        minimum: 64,
        maximum: 2048,
        default: 256,
        description: 'Width and height of the image in pixels (svg and png)',
      },
    },
    required: ['data'],
    additionalProperties: false,
  },
  semanticFields: {
    data: 'Text or URL to encode, as UTF-8. Capacity depends on the level: up to 2331 bytes at M, 1273 at H',
    errorCorrection:
      'Error-correction level L, M (default), Q or H; higher survives more damage but holds less data',
    size: 'Image width and height in pixels, 64 to 2048 (default 256), quiet zone included; ignored for utf8',
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
});
