/** qr-code: SVG, PNG (data URL) or UTF-8 block-character QR codes; `qrcode` encodes, png.ts draws the PNG. */
import QRCode from 'qrcode';
import { type ToolInput, ToolInputError } from '#tool-kit';
import { tooMuchData } from './capacity.js';
import { renderPng } from './png.js';
import type { Level } from './tool.js';

/** The 4-module quiet zone the QR standard asks for; scanners need it. */
export const MARGIN = 4;

/** A lone UTF-16 surrogate has no UTF-8 form, so no QR byte segment can carry it. */
function checkUnicode(data: string): void {
  if (/[\uD800-\uDFFF]/u.test(data)) {
    throw new ToolInputError('data is not valid Unicode: it holds a lone surrogate (\\uD800-\\uDFFF)');
  }
}

function encode(data: string, level: Level): QRCode.QRCode {
  try {
    return QRCode.create(data, { errorCorrectionLevel: level });
  } catch (err) {
    if (/too big/i.test((err as Error).message)) throw new ToolInputError(tooMuchData(data, level));
    throw err;
  }
}

/**
 * Input as the schema in tool.ts passed it: data of 1 to MAX_DATA_CHARS characters (the
 * encoder then refuses what does not fit the level), a known level, a size in range.
 */
export default async function run(input: ToolInput, mode: string) {
  const data = input.data as string;
  checkUnicode(data);
  const errorCorrection = input.errorCorrection as Level;
  const size = input.size as number;
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
