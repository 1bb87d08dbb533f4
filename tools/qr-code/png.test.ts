import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { toolRunner } from '../_shared/test-helpers.js';
import { layout, renderPng } from './png.js';
import run from './run.js';
import tool from './tool.js';

const qrCode = toolRunner(tool, run);

const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ??
  jsQRModule) as typeof jsQRModule.default;

const readPng = (url: string) =>
  PNG.sync.read(Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64'));

describe('qr-code PNG rendering', () => {
  it.each([
    ['version 40 at 1024 px (5.5 px per module before)', 'x'.repeat(2953), 1024],
    ['version 40, non-ASCII, at 1000 px', 'é'.repeat(1476), 1000],
    ['version 27 at 777 px', 'ünïcödé 😀 '.repeat(40), 777],
  ])('%s decodes back to the input (jsQR oracle)', async (_label, data, size) => {
    const r = (await qrCode({ data, size, errorCorrection: 'L' }, 'png')) as { data: string };
    const png = readPng(r.data);
    expect([png.width, png.height]).toEqual([size, size]);
    expect(jsQR(new Uint8ClampedArray(png.data), size, size)?.data).toBe(data);
  });

  it('draws every module as a whole number of pixels, with at least the 4-module quiet zone', () => {
    const qr = QRCode.create('https://example.com/', { errorCorrectionLevel: 'M' });
    const size = 1000;
    const { scale, offset } = layout(qr.modules.size, size, 4);
    expect(scale).toBe(Math.floor(size / (qr.modules.size + 8)));
    expect(offset).toBeGreaterThanOrEqual(4 * scale);
    const png = readPng(renderPng(qr.modules, size, 4));
    const dark = (x: number, y: number) => png.data[(y * size + x) * 4] === 0;
    for (let r = 0; r < qr.modules.size; r++) {
      for (let c = 0; c < qr.modules.size; c++) {
        const want = qr.modules.get(r, c) === 1;
        // First and last pixel of the module agree with the matrix.
        expect(dark(offset + c * scale, offset + r * scale)).toBe(want);
        expect(dark(offset + (c + 1) * scale - 1, offset + (r + 1) * scale - 1)).toBe(want);
      }
    }
    expect(dark(offset - 1, offset)).toBe(false);
    expect(dark(offset + qr.modules.size * scale, offset)).toBe(false);
  });
});
