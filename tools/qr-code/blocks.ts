/**
 * The Reed-Solomon block structure of every QR version and level (ISO/IEC 18004, table 9),
 * and which codeword each module of a symbol carries. Used to choose the error-correction
 * level for a logo area: the area blanks modules, so the codewords it touches are errors
 * that each block must be able to correct. The two tables are those the `qrcode` package
 * encodes with (lib/core/error-correction-code.js, MIT); capacity.test.ts checks the byte
 * capacities they give against the published table.
 */
import type { Level } from './tool.js';

const LEVEL_INDEX: Record<Level, number> = { L: 0, M: 1, Q: 2, H: 3 };

/** Error-correction blocks per version (rows 1-40) and level (L M Q H). */
// biome-ignore format: a table
const EC_BLOCKS = [
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 2, 2, 4, 1, 2, 4, 4, 2, 4, 4, 4, 2, 4, 6, 5, 2, 4, 6, 6,
  2, 5, 8, 8, 4, 5, 8, 8, 4, 5, 8, 11, 4, 8, 10, 11, 4, 9, 12, 16, 4, 9, 16, 16, 6, 10, 12, 18,
  6, 10, 17, 16, 6, 11, 16, 19, 6, 13, 18, 21, 7, 14, 21, 25, 8, 16, 20, 25, 8, 17, 23, 25,
  9, 17, 23, 34, 9, 18, 25, 30, 10, 20, 27, 32, 12, 21, 29, 35, 12, 23, 34, 37, 12, 25, 34, 40,
  13, 26, 35, 42, 14, 28, 38, 45, 15, 29, 40, 48, 16, 31, 43, 51, 17, 33, 45, 54, 18, 35, 48, 57,
  19, 37, 51, 60, 19, 38, 53, 63, 20, 40, 56, 66, 21, 43, 59, 70, 22, 45, 62, 74, 24, 47, 65, 77,
  25, 49, 68, 81,
];

/** Error-correction codewords in all, per version and level. */
// biome-ignore format: a table
const EC_CODEWORDS = [
  7, 10, 13, 17, 10, 16, 22, 28, 15, 26, 36, 44, 20, 36, 52, 64, 26, 48, 72, 88, 36, 64, 96, 112,
  40, 72, 108, 130, 48, 88, 132, 156, 60, 110, 160, 192, 72, 130, 192, 224, 80, 150, 224, 264,
  96, 176, 260, 308, 104, 198, 288, 352, 120, 216, 320, 384, 132, 240, 360, 432,
  144, 280, 408, 480, 168, 308, 448, 532, 180, 338, 504, 588, 196, 364, 546, 650,
  224, 416, 600, 700, 224, 442, 644, 750, 252, 476, 690, 816, 270, 504, 750, 900,
  300, 560, 810, 960, 312, 588, 870, 1050, 336, 644, 952, 1110, 360, 700, 1020, 1200,
  390, 728, 1050, 1260, 420, 784, 1140, 1350, 450, 812, 1200, 1440, 480, 868, 1290, 1530,
  510, 924, 1350, 1620, 540, 980, 1440, 1710, 570, 1036, 1530, 1800, 570, 1064, 1590, 1890,
  600, 1120, 1680, 1980, 630, 1204, 1770, 2100, 660, 1260, 1860, 2220, 720, 1316, 1950, 2310,
  750, 1372, 2040, 2430,
];

/**
 * Codewords of each version, data and error correction together: the data modules of the
 * symbol (all but the function patterns and format/version information) / 8, rounded down.
 */
export function totalCodewords(version: number): number {
  const n = 4 * version + 17;
  const align = version === 1 ? 0 : Math.floor(version / 7) + 2; // alignment pattern positions per axis
  // Each 5×5 pattern but the three at the finders; those on row or column 6 share 5 modules with a timing pattern.
  const alignModules = align === 0 ? 0 : 25 * (align * align - 3) - 10 * (align - 2);
  const functionModules =
    3 * 64 + // finder patterns with their separators
    2 * (n - 16) + // timing patterns
    alignModules +
    31 + // format information (2 × 15) and the dark module
    (version >= 7 ? 36 : 0); // version information (2 × 18)
  return Math.floor((n * n - functionModules) / 8);
}

/**
 * The misdecode-protection codewords p of table 9's note: the small symbols keep a few of
 * their error-correction codewords for detecting, not correcting, errors.
 */
function misdecodeProtection(version: number, level: Level): number {
  if (version === 1) return { L: 3, M: 2, Q: 1, H: 1 }[level];
  if (version === 2 && level === 'L') return 2;
  if (version === 3 && level === 'L') return 1;
  return 0;
}

export interface BlockLayout {
  total: number;
  dataCodewords: number;
  /** Error-correction codewords of each block (the same in every block). */
  ecPerBlock: number;
  /** Data codewords of each block, group 1 (shorter) first. */
  dataPerBlock: number[];
  /** Codeword errors each block corrects: (ecPerBlock - p) / 2, rounded down. */
  correctable: number;
}

export function blockLayout(version: number, level: Level): BlockLayout {
  const i = (version - 1) * 4 + LEVEL_INDEX[level];
  const blocks = EC_BLOCKS[i]!;
  const ec = EC_CODEWORDS[i]!;
  const total = totalCodewords(version);
  const dataCodewords = total - ec;
  const group2 = total % blocks;
  const shortData = Math.floor(dataCodewords / blocks);
  const dataPerBlock = Array.from({ length: blocks }, (_, b) =>
    b < blocks - group2 ? shortData : shortData + 1,
  );
  const ecPerBlock = ec / blocks;
  return {
    total,
    dataCodewords,
    ecPerBlock,
    dataPerBlock,
    correctable: Math.floor((ecPerBlock - misdecodeProtection(version, level)) / 2),
  };
}

/** Bytes a version and level hold in byte mode: 4 bits of mode, the count (8 or 16 bits), the data. */
export function byteCapacity(version: number, level: Level): number {
  const countBits = version < 10 ? 8 : 16;
  return Math.floor((blockLayout(version, level).dataCodewords * 8 - 4 - countBits) / 8);
}

/**
 * The block of each codeword in the order the symbol carries them: data codewords
 * interleaved across the blocks (one from each in turn; the longer blocks of group 2 have
 * one more at the end), then the error-correction codewords the same way.
 */
export function blockOfCodeword(layout: BlockLayout): Int16Array {
  const out = new Int16Array(layout.total);
  const blocks = layout.dataPerBlock.length;
  const longest = Math.max(...layout.dataPerBlock);
  let k = 0;
  for (let i = 0; i < longest; i++) {
    for (let b = 0; b < blocks; b++) if (i < layout.dataPerBlock[b]!) out[k++] = b;
  }
  for (let i = 0; i < layout.ecPerBlock; i++) for (let b = 0; b < blocks; b++) out[k++] = b;
  return out;
}

export interface ReservedMatrix {
  size: number;
  isReserved(row: number, col: number): number | boolean;
}

/**
 * The codeword each module carries (-1: a function module or a remainder bit), following the
 * placement of ISO/IEC 18004 7.7.3: two-module columns from the right, upwards then
 * downwards, skipping the vertical timing pattern.
 */
export function codewordOfModule(matrix: ReservedMatrix): Int32Array {
  const n = matrix.size;
  const out = new Int32Array(n * n).fill(-1);
  let bit = 0;
  let upwards = true;
  for (let right = n - 1; right > 0; right -= 2) {
    if (right === 6) right = 5;
    for (let i = 0; i < n; i++) {
      const row = upwards ? n - 1 - i : i;
      for (let c = 0; c < 2; c++) {
        const col = right - c;
        if (matrix.isReserved(row, col)) continue;
        out[row * n + col] = bit >> 3;
        bit++;
      }
    }
    upwards = !upwards;
  }
  const total = bit >> 3;
  // The last bits that do not make a whole codeword are remainder bits.
  for (let i = 0; i < out.length; i++) if (out[i]! >= total) out[i] = -1;
  return out;
}
