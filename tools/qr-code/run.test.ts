import { XMLValidator } from 'fast-xml-parser';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool, { MAX_DATA_CHARS, MAX_SIZE, MIN_SIZE } from './tool.js';

// jsqr's CommonJS export is the function itself while its typings declare a default export.
const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ??
  jsQRModule) as typeof jsQRModule.default;

type Result = {
  format: string;
  data: string;
  version: number;
  size: number | null;
  modules: number;
} & Record<string, unknown>;
const qrCode = toolRunner(tool, run);
const call = async (input: Record<string, unknown>, mode = 'svg') => (await qrCode(input, mode)) as Result;
const invalid = (input: Record<string, unknown>, message?: string | RegExp, mode = 'svg') =>
  expectToolError(qrCode(input, mode), 'INVALID_INPUT', message);

/** Decodes a PNG data URL back to its text with jsQR (the oracle). */
function decodePng(dataUrl: string): { text: string | undefined; width: number; height: number } {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return { text: code?.data, width: png.width, height: png.height };
}

/** Turns the utf8 rendering (two module rows per line) back into pixels, 4 px per module. */
function decodeUtf8(text: string): string | undefined {
  const lines = text.split('\n');
  const rows: boolean[][] = [];
  for (const line of lines) {
    const chars = [...line];
    rows.push(
      chars.map((c) => c === '█' || c === '▀'),
      chars.map((c) => c === '█' || c === '▄'),
    );
  }
  const scale = 4;
  const w = (rows[0]?.length ?? 0) * scale;
  const h = rows.length * scale;
  const rgba = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = rows[Math.floor(y / scale)]?.[Math.floor(x / scale)] ? 0 : 255;
      rgba.set([v, v, v, 255], (y * w + x) * 4);
    }
  }
  return jsQR(rgba, w, h)?.data;
}

describe('qr-code', () => {
  it.each([
    ['ASCII URL', 'https://example.com/path?q=1&r=two'],
    ['Unicode', 'Grüße, 日本語, emoji 😀'],
    ['digits', '0123456789'.repeat(10)],
  ])('PNG of %s decodes back to the input (jsQR oracle)', async (_label, data) => {
    const r = await call({ data, size: 300 }, 'png');
    expect(r.data.startsWith('data:image/png;base64,')).toBe(true);
    const decoded = decodePng(r.data);
    expect(decoded).toEqual({ text: data, width: 300, height: 300 });
  });

  it('SVG is well-formed XML with the requested size', async () => {
    const r = await call({ data: 'a <&> "svg"', size: 512 });
    expect(r).toMatchObject({ format: 'svg', size: 512, errorCorrection: 'M', version: 1, modules: 21 });
    expect(XMLValidator.validate(r.data)).toBe(true);
    expect(r.data).toMatch(/^<svg [^>]*width="512" height="512"[^>]*viewBox="0 0 29 29"/);
  });

  it('utf8 output decodes back too and has two module rows per line', async () => {
    const r = await call({ data: 'utf8 ✓', errorCorrection: 'Q' }, 'utf8');
    expect(r.size).toBeNull();
    expect(r.data.split('\n')).toHaveLength(Math.ceil((r.modules + 8) / 2));
    expect(decodeUtf8(r.data)).toBe('utf8 ✓');
  });

  it('higher levels need larger versions for the same data; defaults are M and 256', async () => {
    const data = 'x'.repeat(100);
    const versions = [];
    for (const errorCorrection of ['L', 'M', 'Q', 'H'])
      versions.push((await call({ data, errorCorrection })).version);
    // ISO/IEC 18004 byte capacities: 100 bytes need 5-L (106), 6-M (106), 8-Q (108), 10-H (119).
    expect(versions).toEqual([5, 6, 8, 10]);
    expect(await call({ data: 'a' }, 'png')).toMatchObject({ errorCorrection: 'M', size: 256 });
  });

  it('encodes up to the capacity of the level, and refuses one byte more with the limit', async () => {
    const atLimit = await call({ data: 'x'.repeat(1273), errorCorrection: 'H', size: 2048 }, 'png');
    expect(atLimit.version).toBe(40);
    expect(decodePng(atLimit.data).text).toBe('x'.repeat(1273));
    const over = { data: 'x'.repeat(1274), errorCorrection: 'H' };
    await invalid(over, 'data is 1274 bytes; the maximum at level H is 1273 bytes');
    // Multi-byte characters count as their UTF-8 bytes.
    await invalid({ data: 'é'.repeat(1200), errorCorrection: 'H' }, 'data is 2400 bytes');
    // More than any QR code holds: the schema's bound, before the encoder.
    await invalid({ data: '1'.repeat(8000) }, `data must NOT have more than ${MAX_DATA_CHARS} characters`);
    await invalid({ data: '1'.repeat(MAX_DATA_CHARS + 1) }, `more than ${MAX_DATA_CHARS} characters`);
    // Within that bound but past the level's capacity, the message names the level asked for.
    await invalid({ data: '1'.repeat(MAX_DATA_CHARS) }, 'maximum at level M is 2331 bytes');
  });

  it('refuses a size smaller than the code needs, and sizes out of range', async () => {
    expect((await call({ data: 'hi', size: 64 }, 'png')).size).toBe(64);
    await invalid({ data: 'x'.repeat(500), size: 64 }, 'use at least', 'png');
    const outOfRange: [unknown, string][] = [
      [MIN_SIZE - 1, `size must be >= ${MIN_SIZE}`],
      [MAX_SIZE + 1, `size must be <= ${MAX_SIZE}`],
      [100.5, 'size must be integer'],
      ['big', 'size must be integer'],
    ];
    for (const [size, message] of outOfRange) await invalid({ data: 'hi', size }, message);
  });

  it('refuses empty, missing or non-string data with INVALID_INPUT', async () => {
    // (A number is no wrong type: the schema reads 42 as the text "42".)
    for (const data of ['', undefined, [42], { a: 1 }]) await invalid({ data });
    await invalid({ data: '' }, 'data must NOT have fewer than 1 characters');
    await invalid({}, 'data is required');
  });

  it('refuses a lone surrogate (no UTF-8 form) but encodes astral characters', async () => {
    await invalid({ data: 'a\ud800b' }, 'lone surrogate');
    expect((await call({ data: 'emoji \u{1F600}' }, 'utf8')).version).toBeGreaterThan(0);
  });

  it('refuses an unknown level or format with UNSUPPORTED_OPTION listing the supported ones', async () => {
    await expectToolError(qrCode({ data: 'hi', errorCorrection: 'X' }), 'UNSUPPORTED_OPTION', 'L, M, Q, H');
    await expectToolError(qrCode({ data: 'hi' }, 'jpeg'), 'UNSUPPORTED_OPTION', 'svg, png, utf8');
  });
});
