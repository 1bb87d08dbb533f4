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
/** The quiet zone the standard asks for, in modules; the default margin. */
export const DEFAULT_MARGIN = 4;
export const MAX_MARGIN = 16;
/** The largest centre logo area, as a fraction of the symbol's width. */
export const MAX_LOGO = 0.3;
/** What happens after the produced code is decoded back: refuse a mismatch, report it, or skip the check. */
export const DECODE_CHECKS = ['require', 'report', 'off'] as const;

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
    errorCorrectionRaised: {
      type: 'boolean',
      description: 'Whether errorCorrection is higher than the level asked for (a logo area needed it)',
    },
    dark: { type: 'string', description: 'Colour of the dark modules, #rrggbb or #rrggbbaa' },
    light: {
      type: 'string',
      description: 'Colour of the light modules and quiet zone, #rrggbb or #rrggbbaa',
    },
    contrast: {
      type: 'number',
      minimum: 1,
      maximum: 21,
      description: 'WCAG 2 contrast ratio of the two colours as shown over white',
    },
    logoArea: {
      type: ['object', 'null'],
      description: 'The blank centre area left for a logo; null without one',
      properties: {
        fraction: { type: 'number', description: 'The logo input: the fraction of the width asked for' },
        modules: { type: 'integer', minimum: 1, description: 'Side of the area in modules (odd, centred)' },
        start: {
          type: 'integer',
          minimum: 0,
          description: 'Row and column of its first module, quiet zone excluded',
        },
        box: {
          type: ['object', 'null'],
          description: 'The area in the image, in pixels (svg: user units); null for utf8',
          properties: {
            x: { type: 'number' },
            y: { type: 'number' },
            width: { type: 'number' },
            height: { type: 'number' },
          },
          required: ['x', 'y', 'width', 'height'],
          additionalProperties: false,
        },
      },
      required: ['fraction', 'modules', 'start', 'box'],
      additionalProperties: false,
    },
    decodeCheck: {
      type: ['object', 'null'],
      description: 'The code decoded back with jsQR and compared with data; null when decodeCheck is off',
      properties: {
        decoded: { type: 'boolean', description: 'jsQR found and read a code' },
        matches: { type: 'boolean', description: 'The text read is data, exactly' },
        source: {
          type: 'string',
          enum: ['png', 'modules'],
          description: 'png: the PNG itself was decoded; modules: the module matrix drawn at 4 px per module',
        },
      },
      required: ['decoded', 'matches', 'source'],
      additionalProperties: false,
    },
  },
  required: ['format', 'version', 'errorCorrection', 'modules', 'margin', 'data', 'size', 'mimeType'],
  additionalProperties: false,
};

export default defineTool({
  id: 'qr-code',
  title: 'QR Code Generator',
  description:
    'Encodes text or a URL as a QR code: SVG, PNG (data URL) or UTF-8 block characters, with a chosen error-correction level and size, colours, quiet zone and a blank centre area for a logo; every code is decoded back before it is returned.',
  input: {
    type: 'object',
    properties: {
      data: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_DATA_CHARS,
        description:
          'Text or URL to encode, as UTF-8. Capacity depends on the level: up to 2331 bytes at M, 1273 at H',
      },
      errorCorrection: {
        type: 'string',
        enum: [...LEVELS],
        default: 'M',
        description:
          'Error-correction level L, M (default), Q or H; higher survives more damage but holds less data',
      },
      size: {
        type: 'integer',
        minimum: MIN_SIZE,
        maximum: MAX_SIZE,
        default: DEFAULT_SIZE,
        description: `Image width and height in pixels, ${MIN_SIZE} to ${MAX_SIZE} (default ${DEFAULT_SIZE}), quiet zone included; ignored for utf8`,
      },
      margin: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_MARGIN,
        default: DEFAULT_MARGIN,
        description: `Quiet zone on each side in modules, 0 to ${MAX_MARGIN} (default ${DEFAULT_MARGIN}, the standard's); part of size`,
      },
      dark: {
        type: 'string',
        default: '#000000',
        description:
          'Dark module colour, #rgb, #rgba, #rrggbb or #rrggbbaa (default #000000); must be darker than light',
      },
      light: {
        type: 'string',
        default: '#ffffff',
        description: `Light module and quiet-zone colour (default #ffffff); the pair needs a WCAG contrast of at least 3:1 over white`,
      },
      logo: {
        type: 'number',
        minimum: 0,
        maximum: MAX_LOGO,
        default: 0,
        description: `Blank centre area for a logo, as a fraction of the symbol width, 0 to ${MAX_LOGO} (default 0); raises the error-correction level as needed`,
      },
      decodeCheck: {
        type: 'string',
        enum: [...DECODE_CHECKS],
        default: 'require',
        description:
          'require (default: refuse a code that does not decode back to data), report (return it with decodeCheck.matches false), or off',
      },
    },
    required: ['data'],
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { inputMaxBytes: 4096 },
  modes: {
    field: 'format',
    description:
      'Output: svg (default; SVG text), png (data:image/png;base64 URL) or utf8 (text drawn with block characters)',
    each: { svg: {}, png: {}, utf8: {} },
  },
  slots: { a: 'data', b: 'errorCorrection', c: 'size' },
  deterministic: true,
});
