import { describe, expect, it } from 'vitest';
import { declaredCases, expectToolError, toolRunner } from '../_shared/test-helpers.js';
import { byteCapacity } from './blocks.js';
import { MAX_BYTES, MAX_DIGITS } from './capacity.js';
import run from './run.js';
import tool, { LEVELS, MAX_DATA_CHARS } from './tool.js';

const qrCode = toolRunner(tool, run);

describe('qr-code capacity message', () => {
  it('states the alphanumeric capacity too: 4296 upper-case characters fit at L, 4297 do not', async () => {
    const fit = (await qrCode({ data: 'A'.repeat(4296), errorCorrection: 'L' }, 'svg')) as {
      version: number;
    };
    expect(fit.version).toBe(40);
    // "the maximum is 2953 bytes" alone would be wrong here: 4296 of these characters fit.
    const over = qrCode({ data: 'A'.repeat(4297), errorCorrection: 'L' }, 'svg');
    await expectToolError(over, 'INVALID_INPUT', '4296 if only 0-9, A-Z, space and $%*+-./:');
  });

  it("bounds the input schema's data by the largest capacity there is", () => {
    expect(MAX_DATA_CHARS).toBe(Math.max(...Object.values(MAX_DIGITS)));
  });
});

/**
 * ISO/IEC 18004:2015 table 7, byte mode: the data bytes each version and level hold, as
 * published (versions 1-12 and 40). Checked twice: the block table of blocks.ts (which picks
 * the level for a logo area) gives these numbers, and the tool puts exactly that many bytes
 * in that version and one byte more in the next (or refuses it at version 40).
 */
// biome-ignore format: a table
const ISO_BYTE_CAPACITY: Record<number, [number, number, number, number]> = {
  1: [17, 14, 11, 7], 2: [32, 26, 20, 14], 3: [53, 42, 32, 24], 4: [78, 62, 46, 34],
  5: [106, 84, 60, 44], 6: [134, 106, 74, 58], 7: [154, 122, 86, 64], 8: [192, 152, 108, 84],
  9: [230, 180, 130, 98], 10: [271, 213, 151, 119], 11: [321, 251, 177, 137], 12: [367, 287, 203, 155],
  40: [2953, 2331, 1663, 1273],
};
const vectors = Object.entries(ISO_BYTE_CAPACITY).flatMap(([version, caps]) =>
  LEVELS.map((level, i) => [Number(version), level, caps[i]!] as const),
);

describe('qr-code capacities against ISO/IEC 18004 table 7 (byte mode)', () => {
  it('runs as many vectors as conformance.json says', () => {
    expect(declaredCases(import.meta.url, 'ISO/IEC 18004 table 7')).toBe(vectors.length);
  });

  it.each(vectors)('version %i-%s holds %i bytes', async (version, level, bytes) => {
    expect(byteCapacity(version, level)).toBe(bytes);
    const input = { errorCorrection: level, decodeCheck: 'off' };
    const fit = (await qrCode({ ...input, data: 'é'.repeat(bytes / 2) + 'x'.repeat(bytes % 2) }, 'utf8')) as {
      version: number;
    };
    expect(fit.version).toBe(version);
    const over = qrCode({ ...input, data: 'x'.repeat(bytes + 1) }, 'utf8');
    if (version === 40) await expectToolError(over, 'INVALID_INPUT', `maximum at level ${level}`);
    else expect(((await over) as { version: number }).version).toBe(version + 1);
  });

  it('the version 40 limits of capacity.ts are the table', () => {
    for (const [i, level] of LEVELS.entries()) expect(MAX_BYTES[level]).toBe(ISO_BYTE_CAPACITY[40]![i]);
  });
});
