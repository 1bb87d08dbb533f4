/** qr-code: SVG, PNG (data URL) or UTF-8 block-character QR codes; `qrcode` encodes, png.ts draws the PNG. */
import QRCode from 'qrcode';
import type { ToolInput } from '../../src/shared/tool-def.js';
import { ToolInputError, unsupported } from '../../src/shared/tool-error.js';
import { LEVELS, type Level, MAX_DIGITS, tooMuchData } from './capacity.js';
import { renderPng } from './png.js';

const FORMATS = ['svg', 'png', 'utf8'];
export const DEFAULT_SIZE = 256;
export const MIN_SIZE = 64;
export const MAX_SIZE = 2048;
/** The 4-module quiet zone the QR standard asks for; scanners need it. */
export const MARGIN = 4;

function readData(value: unknown): string {
  if (typeof value !== 'string') throw new ToolInputError('data must be a string (the text to encode)');
  if (value === '') throw new ToolInputError('data is empty: give the text or URL to encode');
  // A lone UTF-16 surrogate has no UTF-8 form, so no QR byte segment can carry it.
  if (/[\uD800-\uDFFF]/u.test(value)) {
    throw new ToolInputError('data is not valid Unicode: it holds a lone surrogate (\\uD800-\\uDFFF)');
  }
  // No QR code holds more characters than this; checked before the encoder works on it.
  if (value.length > MAX_DIGITS.L) throw new ToolInputError(tooMuchData(value, 'L'));
  return value;
}

function readLevel(value: unknown): Level {
  if (value === undefined || value === null || value === '') return 'M';
  if (typeof value === 'string' && (LEVELS as readonly string[]).includes(value)) return value as Level;
  throw unsupported('errorCorrection', value, LEVELS);
}

function readSize(value: unknown): number {
  if (value === undefined || value === null || value === '') return DEFAULT_SIZE;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < MIN_SIZE || n > MAX_SIZE) {
    throw new ToolInputError(
      `size must be an integer from ${MIN_SIZE} to ${MAX_SIZE} (pixels); got ${String(value)}`,
    );
  }
  return n;
}

function encode(data: string, level: Level): QRCode.QRCode {
  try {
    return QRCode.create(data, { errorCorrectionLevel: level });
  } catch (err) {
    if (/too big/i.test((err as Error).message)) throw new ToolInputError(tooMuchData(data, level));
    throw err;
  }
}

export default async function run(input: ToolInput, mode: string) {
  if (!FORMATS.includes(mode)) throw unsupported('format', mode, FORMATS);
  const data = readData(input.data);
  const errorCorrection = readLevel(input.errorCorrection);
  const size = readSize(input.size);
  const qr = encode(data, errorCorrection);
  const modules = qr.modules.size;
  // Below one pixel per module (quiet zone included) there is no image to draw; refuse.
  if (mode !== 'utf8' && size < modules + 2 * MARGIN) {
    throw new ToolInputError(
      `size ${size} px is too small for this code (version ${qr.version}: ${modules} modules plus a ` +
        `${MARGIN}-module margin each side); use at least ${modules + 2 * MARGIN}`,
    );
  }
  const options = { errorCorrectionLevel: errorCorrection, margin: MARGIN, width: size };
  const common = { format: mode, version: qr.version, errorCorrection, modules, margin: MARGIN };
  if (mode === 'png') {
    return { ...common, data: renderPng(qr.modules, size, MARGIN), size, mimeType: 'image/png' };
  }
  if (mode === 'svg') {
    const svg = await QRCode.toString(data, { ...options, type: 'svg' });
    return { ...common, data: svg, size, mimeType: 'image/svg+xml' };
  }
  // utf8: two module rows per text line, █ ▀ ▄ for dark modules; the size does not apply.
  const text = await QRCode.toString(data, { ...options, type: 'utf8' });
  return { ...common, data: text, size: null, mimeType: 'text/plain; charset=utf-8' };
}
