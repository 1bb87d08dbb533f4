/**
 * The PNG outputs read by an independent decoder, ZXing (@zxing/library): colours, margins,
 * logo areas and every level decode back to the input, and the level ZXing reads from the
 * symbol is the one the answer reports. Then the Reed-Solomon block layout that picks the
 * level for a logo area, checked against ZXing's error correction. Case counts are in
 * conformance.json.
 */
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { declaredCases, toolRunner } from '../_shared/test-helpers.js';
import { blockLayout, blockOfCodeword, codewordOfModule } from './blocks.js';
import { renderPng } from './png.js';
import run from './run.js';
import { readPng, zxingDecode } from './test-helpers.js';
import tool, { type Level } from './tool.js';

const qrCode = toolRunner(tool, run);

type Result = {
  data: string;
  version: number;
  modules: number;
  errorCorrection: Level;
  errorCorrectionRaised: boolean;
  logoArea: { modules: number; box: { x: number; y: number; width: number; height: number } } | null;
  decodeCheck: { decoded: boolean; matches: boolean } | null;
};

const URL_DATA = 'https://example.com/menu?table=12';
const LONG = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(5);

/** [label, input]: each is made as a PNG and read back by ZXing. */
const CASES: [string, Record<string, unknown>][] = [
  ...(['L', 'M', 'Q', 'H'] as const).map((level): [string, Record<string, unknown>] => [
    `level ${level}`,
    { data: URL_DATA, errorCorrection: level },
  ]),
  ['level H, non-ASCII', { data: 'Grüße, 日本語, emoji 😀', errorCorrection: 'H' }],
  ['navy on cream', { data: URL_DATA, dark: '#1a237e', light: '#fff8e1' }],
  ['dark red on white, #rgb', { data: URL_DATA, dark: '#b71c1c', light: '#fff' }],
  ['black on yellow', { data: URL_DATA, dark: '#000', light: '#ffeb3b' }],
  ['half-transparent black', { data: URL_DATA, dark: '#00000099' }],
  ['transparent background', { data: URL_DATA, light: '#ffffff00' }],
  ['green on transparent, #rgba', { data: URL_DATA, dark: '#1b5e20', light: '#fff0' }],
  ...[0, 1, 2, 3, 8, 16].map((margin): [string, Record<string, unknown>] => [
    `margin ${margin}`,
    { data: URL_DATA, margin, size: 300 },
  ]),
  ...[0.1, 0.2, 0.25, 0.3].flatMap((logo) =>
    (['L', 'M'] as const).map((level): [string, Record<string, unknown>] => [
      `logo ${logo}, level ${level} asked`,
      { data: URL_DATA, logo, errorCorrection: level },
    ]),
  ),
  ['logo 0.3, long data', { data: LONG, logo: 0.3, size: 800 }],
  ['logo 0.2, long data, Q asked', { data: LONG, logo: 0.2, errorCorrection: 'Q', size: 800 }],
  [
    'logo 0.3, navy on cream, margin 2',
    { data: URL_DATA, logo: 0.3, dark: '#1a237e', light: '#fff8e1', margin: 2 },
  ],
  ['logo 0.25, digits', { data: '31415926535897932384626433832795', logo: 0.25 }],
];

describe('qr-code PNG outputs read by ZXing (independent decoder)', () => {
  it('runs as many cases as conformance.json says', () => {
    expect(declaredCases(import.meta.url, 'ZXing decoder')).toBe(CASES.length);
  });

  it.each(CASES)('%s: ZXing reads the data and the level reported', async (_label, input) => {
    const r = (await qrCode({ size: 400, ...input }, 'png')) as Result;
    const read = zxingDecode(r.data);
    expect(read?.text).toBe(input.data);
    expect(read?.level).toBe(r.errorCorrection);
    expect(r.decodeCheck).toEqual({ decoded: true, matches: true, source: 'png' });
    const asked = (input.errorCorrection as Level | undefined) ?? 'M';
    expect(r.errorCorrectionRaised).toBe(r.errorCorrection !== asked);
    if (input.logo) {
      // The area is blank: every pixel of the box is the light colour.
      const png = readPng(r.data);
      const { x, y, width, height } = r.logoArea!.box;
      const light = png.data.readUInt32BE(((y + 1) * png.width + x + 1) * 4);
      for (let py = y; py < y + height; py++) {
        for (let px = x; px < x + width; px++) {
          expect(png.data.readUInt32BE((py * png.width + px) * 4)).toBe(light);
        }
      }
    }
  });
});

/**
 * The layout logo.ts counts on: which block each module's codeword belongs to. Flipping
 * every module of `t` codewords of one block (spread over it), t = what the block corrects, still decodes;
 * one more codeword in the same block does not. A wrong module-to-codeword or
 * codeword-to-block map would spread the flips over blocks and decode in both cases.
 */
const BLOCK_CASES: [number, Level][] = [
  [4, 'L'],
  [5, 'Q'],
  [7, 'M'],
  [10, 'H'],
  [15, 'Q'],
];

function flipped(version: number, level: Level, block: number, count: number, data: string): string {
  const qr = QRCode.create(data, { version, errorCorrectionLevel: level });
  const layout = blockLayout(version, level);
  const blockOf = blockOfCodeword(layout);
  const codewordOf = codewordOfModule(qr.modules);
  // Spread over the block's codewords: flips bunched in one corner could hide the
  // alignment pattern the decoder samples by, which is not what this checks.
  const ofBlock = [...blockOf.keys()].filter((k) => blockOf[k] === block);
  const step = ofBlock.length / count;
  const chosen = new Set(Array.from({ length: count }, (_, i) => ofBlock[Math.floor(i * step)]!));
  const n = qr.modules.size;
  const get = (r: number, c: number) => {
    const v = qr.modules.get(r, c);
    return chosen.has(codewordOf[r * n + c]!) ? 1 - v : v;
  };
  return renderPng({ size: n, get }, (n + 8) * 4, 4);
}

const blockRuns = BLOCK_CASES.flatMap(([version, level]) => {
  const blocks = blockLayout(version, level).dataPerBlock.length;
  return [...new Set([0, blocks - 1])].map((block) => [version, level, block] as const);
});

describe('qr-code Reed-Solomon block layout, against ZXing', () => {
  it('runs as many cases as conformance.json says', () => {
    expect(declaredCases(import.meta.url, 'Reed-Solomon block layout')).toBe(blockRuns.length * 2);
  });

  it.each(blockRuns)(
    'version %i-%s, block %i: t flipped codewords decode, t + 1 do not',
    (version, level, block) => {
      const data = 'block layout check';
      const t = blockLayout(version, level).correctable;
      // Read as a pure image (no locating): heavy flips can mislead ZXing's finder search,
      // and this checks its error correction.
      expect(zxingDecode(flipped(version, level, block, t, data), true)?.text).toBe(data);
      expect(zxingDecode(flipped(version, level, block, t + 1, data), true)).toBeNull();
    },
  );
});
