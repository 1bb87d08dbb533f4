/**
 * The decode check: the code the tool made is read back with jsQR and compared with the
 * data. A PNG is decoded from its own bytes (signature, chunk CRCs, header, palette, the
 * deflated rows); SVG and utf8 are drawn here from the same module matrix (logo area
 * blanked, same margin, same colours). Both are judged as printed: over white paper (alpha
 * composited on white) with the paper around the image, so a margin under the standard's
 * 4 modules is not held against the code when the paper supplies the quiet zone.
 *
 * The resolution is bounded: jsQR reads 4 px per module. A large PNG is resampled to that
 * (nearest pixel, at its exact module pitch, so every module stays 4 px), which keeps the
 * worst case (version 40 at 2048 px) to about a tenth of the run's deadline. Loaded by run.ts
 * only, in the worker.
 */
import { crc32, inflateSync } from 'node:zlib';
import jsQRModule from 'jsqr';
import type { Rgba } from './colors.js';
import type { ModuleMatrix } from './logo.js';
import { layout } from './png.js';
import { DEFAULT_MARGIN } from './tool.js';

// jsqr's CommonJS export is the function itself while its typings declare a default export.
const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ??
  jsQRModule) as typeof jsQRModule.default;

export interface DecodeCheck {
  /** Whether jsQR found and read a code. */
  decoded: boolean;
  /** Whether the text read is the data, exactly. */
  matches: boolean;
  /** What was decoded: the PNG's pixels, or the module matrix drawn at 4 px per module. */
  source: 'png' | 'modules';
}

/** Pixels per module jsQR reads: it scans whatever the version, and bounds the work. */
export const CHECK_SCALE = 4;

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 255 };
const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 255 };

/** A 1-bit PNG as png.ts writes it: its size, the two colours, and the bit of each pixel. */
export interface BitImage {
  width: number;
  height: number;
  /** Colour of bit 0 and bit 1. */
  colors: [Rgba, Rgba];
  bit(x: number, y: number): number;
}

class PngError extends Error {}

/**
 * Reads a 1-bit greyscale or palette PNG without interlacing and with filter 0 rows, the
 * format png.ts writes; anything else (or a bad CRC, a truncated file) throws.
 */
export function readBitPng(png: Buffer): BitImage {
  const signature = '89504e470d0a1a0a';
  if (png.subarray(0, 8).toString('hex') !== signature) throw new PngError('not a PNG');
  let at = 8;
  let header: Buffer | undefined;
  let palette: Buffer | undefined;
  let alpha: Buffer | undefined;
  const idat: Buffer[] = [];
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    const body = png.subarray(at + 4, at + 8 + length);
    if (body.length !== length + 4 || at + 12 + length > png.length) throw new PngError('truncated chunk');
    if (crc32(body) >>> 0 !== png.readUInt32BE(at + 8 + length)) throw new PngError('bad CRC');
    const type = body.subarray(0, 4).toString('latin1');
    const data = body.subarray(4);
    if (type === 'IHDR') header = data;
    else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') alpha = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (header?.length !== 13) throw new PngError('no header');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [depth, colorType, , , interlace] = header.subarray(8);
  if (depth !== 1 || interlace !== 0 || (colorType !== 0 && colorType !== 3))
    throw new PngError('unexpected format');
  let colors: [Rgba, Rgba] = [BLACK, WHITE];
  if (colorType === 3) {
    if (!palette || palette.length < 6) throw new PngError('no palette');
    const entry = (i: number): Rgba => ({
      r: palette[3 * i]!,
      g: palette[3 * i + 1]!,
      b: palette[3 * i + 2]!,
      a: alpha?.[i] ?? 255,
    });
    colors = [entry(0), entry(1)];
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rowBytes = 1 + Math.ceil(width / 8);
  if (raw.length !== rowBytes * height) throw new PngError('wrong image data length');
  for (let y = 0; y < height; y++) if (raw[y * rowBytes] !== 0) throw new PngError('unexpected row filter');
  return {
    width,
    height,
    colors,
    bit: (x, y) => (raw[y * rowBytes + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1,
  };
}

/** An RGBA image for jsQR, `pad` pixels of white paper added on every side, colours over white. */
function onPaper(width: number, height: number, pad: number, color: (x: number, y: number) => Rgba) {
  const w = width + 2 * pad;
  const h = height + 2 * pad;
  const out = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = color(x, y);
      const o = ((y + pad) * w + x + pad) * 4;
      out[o] = (c.r * c.a + 255 * (255 - c.a)) / 255;
      out[o + 1] = (c.g * c.a + 255 * (255 - c.a)) / 255;
      out[o + 2] = (c.b * c.a + 255 * (255 - c.a)) / 255;
    }
  }
  return { data: out, width: w, height: h };
}

function read(image: { data: Uint8ClampedArray; width: number; height: number }, data: string) {
  // Dark must be darker than light (colors.ts), so the inverted reading is never needed.
  const code = jsQR(image.data, image.width, image.height, { inversionAttempts: 'dontInvert' });
  return { decoded: code !== null, matches: code?.data === data };
}

/**
 * Decodes the PNG data URL the tool returns: its pixels, resampled to CHECK_SCALE px per
 * module when the modules are larger, on white paper.
 */
export function checkPng(dataUrl: string, data: string, modules: number, margin: number): DecodeCheck {
  let image: BitImage;
  try {
    image = readBitPng(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
  } catch {
    return { decoded: false, matches: false, source: 'png' };
  }
  const { scale } = layout(modules, image.width, margin);
  const step = Math.max(1, scale / CHECK_SCALE);
  const w = Math.floor(image.width / step);
  const h = Math.floor(image.height / step);
  const at = (v: number) => Math.floor((v + 0.5) * step);
  const pad = Math.ceil((Math.max(0, DEFAULT_MARGIN - margin) * scale) / step);
  const rgba = onPaper(w, h, pad, (x, y) => image.colors[image.bit(at(x), at(y))]!);
  return { ...read(rgba, data), source: 'png' };
}

/** Draws the matrix at CHECK_SCALE px per module (quiet zone in the light colour) and decodes it. */
export function checkModules(
  matrix: ModuleMatrix,
  data: string,
  margin: number,
  colors: { dark: Rgba; light: Rgba },
): DecodeCheck {
  const n = matrix.size;
  const side = (n + 2 * margin) * CHECK_SCALE;
  const pad = Math.max(0, DEFAULT_MARGIN - margin) * CHECK_SCALE;
  const rgba = onPaper(side, side, pad, (x, y) => {
    const r = Math.floor(y / CHECK_SCALE) - margin;
    const c = Math.floor(x / CHECK_SCALE) - margin;
    return r >= 0 && r < n && c >= 0 && c < n && matrix.get(r, c) === 1 ? colors.dark : colors.light;
  });
  return { ...read(rgba, data), source: 'modules' };
}
