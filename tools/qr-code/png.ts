/**
 * PNG rendering of a QR matrix with a whole number of pixels per module.
 *
 * The `qrcode` package scales modules by a fractional factor to hit an exact width
 * (1024 px / 185 modules = 5.54 px), so module edges wobble between 5 and 6 px and
 * large codes stop decoding (jsQR fails on version 40 at 1024 px). Here each module is
 * exactly floor(size / (modules + 2 * margin)) px and the leftover pixels widen the
 * quiet zone, so the image is still size x size. A 1-bit greyscale PNG is also ~30x
 * less to deflate than the package's RGBA one (2048 px: 0.5 MB instead of 16 MB). Other
 * colours than black on white make it a 1-bit palette PNG (entry 0 dark, 1 light), with a
 * tRNS chunk when a colour has alpha.
 */
import { crc32, deflateSync } from 'node:zlib';

export interface ModuleMatrix {
  size: number;
  get(row: number, col: number): number;
}

export interface PngColors {
  dark: { r: number; g: number; b: number; a: number };
  light: { r: number; g: number; b: number; a: number };
}

const BLACK_ON_WHITE: PngColors = {
  dark: { r: 0, g: 0, b: 0, a: 255 },
  light: { r: 255, g: 255, b: 255, a: 255 },
};

function isBlackOnWhite({ dark, light }: PngColors): boolean {
  return (
    dark.r + dark.g + dark.b === 0 && dark.a === 255 && light.r + light.g + light.b === 765 && light.a === 255
  );
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body) >>> 0, body.length + 4);
  return out;
}

/** Pixels per module and the offset of the first module; the quiet zone is at least `margin` modules. */
export function layout(modules: number, size: number, margin: number): { scale: number; offset: number } {
  const scale = Math.floor(size / (modules + 2 * margin));
  return { scale, offset: Math.floor((size - modules * scale) / 2) };
}

/** A `data:image/png;base64,` URL of the matrix, black on white unless told, `size` px square. */
export function renderPng(
  matrix: ModuleMatrix,
  size: number,
  margin: number,
  colors: PngColors = BLACK_ON_WHITE,
): string {
  const { scale, offset } = layout(matrix.size, size, margin);
  const rowBytes = 1 + Math.ceil(size / 8); // filter byte 0 (None), then 1 bit per pixel
  const white = Buffer.alloc(rowBytes, 0xff);
  white[0] = 0;
  const raw = Buffer.alloc(rowBytes * size);
  let moduleRow: Buffer = white;
  for (let y = 0; y < size; y++) {
    const r = Math.floor((y - offset) / scale);
    const inCode = y >= offset && r < matrix.size;
    if (inCode && (y - offset) % scale === 0) {
      // A new module row: drawn once, copied for its `scale` pixel rows.
      moduleRow = Buffer.from(white);
      for (let c = 0; c < matrix.size; c++) {
        if (!matrix.get(r, c)) continue;
        for (let x = offset + c * scale; x < offset + (c + 1) * scale; x++) {
          const i = 1 + (x >> 3);
          moduleRow.writeUInt8(moduleRow.readUInt8(i) & ~(0x80 >> (x & 7)) & 0xff, i);
        }
      }
    }
    (inCode ? moduleRow : white).copy(raw, y * rowBytes);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 1; // bit depth
  const greyscale = isBlackOnWhite(colors);
  header[9] = greyscale ? 0 : 3; // colour type: greyscale (0 black, 1 white) or palette (0 dark, 1 light)
  const chunks = [chunk('IHDR', header)];
  if (!greyscale) {
    const { dark, light } = colors;
    chunks.push(chunk('PLTE', Buffer.from([dark.r, dark.g, dark.b, light.r, light.g, light.b])));
    if (dark.a < 255 || light.a < 255) chunks.push(chunk('tRNS', Buffer.from([dark.a, light.a])));
  }
  const png = Buffer.concat([
    SIGNATURE,
    ...chunks,
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
