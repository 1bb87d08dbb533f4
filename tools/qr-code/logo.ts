/**
 * The centre logo area and the error-correction level it needs.
 *
 * The area is a square of whole modules in the middle of the symbol, `logo` × the symbol's
 * width (odd, so that it is centred exactly), drawn in the light colour: every module in it
 * reads as light, so every codeword with a module there may be wrong. The level (and, when
 * no level suffices at the smallest version, the version) is chosen so that in every
 * Reed-Solomon block the codewords the area touches take at most LOGO_SHARE of what the
 * block can correct; the rest is left for print, dirt and camera errors.
 */
import QRCode from 'qrcode';
import { ToolInputError } from '#tool-kit';
import { blockLayout, blockOfCodeword, codewordOfModule } from './blocks.js';
import { tooMuchData } from './capacity.js';
import { LEVELS, type Level, MAX_LOGO } from './tool.js';

/** The share of each block's correction the logo area may use. */
export const LOGO_SHARE = 0.5;
/** The area stays clear of the finder patterns, their separators and the format information. */
const FUNCTION_BORDER = 9;

export interface LogoArea {
  /** Side in modules. */
  modules: number;
  /** Row and column of its first module (quiet zone excluded). */
  start: number;
}

export interface ModuleMatrix {
  size: number;
  get(row: number, col: number): number;
}

/** The area for a symbol of `n` modules, or null when `fraction` is 0. */
export function logoArea(n: number, fraction: number): LogoArea | null {
  if (fraction <= 0) return null;
  const side = Math.max(1, 2 * Math.round((fraction * n - 1) / 2) + 1);
  return { modules: side, start: (n - side) / 2 };
}

/** Whether the area leaves the finder patterns, separators and format information whole. */
function fitsSymbol(area: LogoArea): boolean {
  return area.start >= FUNCTION_BORDER;
}

/** The matrix as drawn: modules inside the area read as light. */
export function withLogoArea(matrix: ModuleMatrix, area: LogoArea | null): ModuleMatrix {
  if (!area) return matrix;
  const end = area.start + area.modules;
  const inside = (i: number) => i >= area.start && i < end;
  return { size: matrix.size, get: (r, c) => (inside(r) && inside(c) ? 0 : matrix.get(r, c)) };
}

/** The most codewords the area touches in any one block, and what a block corrects. */
export function logoDamage(
  qr: QRCode.QRCode,
  level: Level,
  area: LogoArea,
): { worst: number; correctable: number } {
  const layout = blockLayout(qr.version, level);
  const blockOf = blockOfCodeword(layout);
  const codewordOf = codewordOfModule(qr.modules);
  const n = qr.modules.size;
  const touched = new Set<number>();
  for (let r = area.start; r < area.start + area.modules; r++) {
    for (let c = area.start; c < area.start + area.modules; c++) {
      const k = codewordOf[r * n + c]!;
      if (k >= 0) touched.add(k);
    }
  }
  const perBlock = new Array<number>(layout.dataPerBlock.length).fill(0);
  for (const k of touched) perBlock[blockOf[k]!]!++;
  return { worst: Math.max(...perBlock), correctable: layout.correctable };
}

export interface ChosenSymbol {
  qr: QRCode.QRCode;
  level: Level;
  area: LogoArea | null;
}

function encode(data: string, level: Level, version?: number): QRCode.QRCode {
  try {
    return QRCode.create(data, { errorCorrectionLevel: level, ...(version ? { version } : {}) });
  } catch (err) {
    if (/too big|not enough|amount of data/i.test((err as Error).message)) {
      throw new ToolInputError(tooMuchData(data, level));
    }
    throw err;
  }
}

function acceptable(qr: QRCode.QRCode, level: Level, area: LogoArea | null): boolean {
  if (!area) return true;
  if (!fitsSymbol(area)) return false;
  const { worst, correctable } = logoDamage(qr, level, area);
  return worst <= Math.floor(correctable * LOGO_SHARE);
}

/**
 * The symbol for `data`: at the requested level without a logo area; with one, at the lowest
 * level from the requested one up whose smallest version bears the area, else at H with
 * the smallest larger version that does.
 */
export function chooseSymbol(data: string, requested: Level, logo: number): ChosenSymbol {
  if (logo > MAX_LOGO) throw new ToolInputError(`logo must be <= ${MAX_LOGO}`);
  const first = encode(data, requested);
  if (logo <= 0) return { qr: first, level: requested, area: null };
  let last = { qr: first, level: requested };
  for (const level of LEVELS.slice(LEVELS.indexOf(requested))) {
    let qr: QRCode.QRCode;
    try {
      qr = level === requested ? first : encode(data, level);
    } catch (err) {
      if (!(err instanceof ToolInputError)) throw err;
      throw new ToolInputError(
        `a logo area of ${logo} needs error-correction level ${level} or higher for this data, and ` +
          `${tooMuchData(data, level).replace(/; shorten.*$/, '')}; shorten the data or use a smaller logo area`,
      );
    }
    last = { qr, level };
    const area = logoArea(qr.modules.size, logo);
    if (acceptable(qr, level, area)) return { qr, level, area };
  }
  // Level H at its smallest version does not bear the area: larger versions (relatively
  // fewer codewords cut at the area's edges, and room beside the finder patterns) may.
  for (let version = last.qr.version + 1; version <= 40; version++) {
    const qr = encode(data, 'H', version);
    const area = logoArea(qr.modules.size, logo);
    if (acceptable(qr, 'H', area)) return { qr, level: 'H', area };
  }
  throw new ToolInputError(
    `a logo area of ${logo} covers more than level H can spare for this data at any version; ` +
      'use a smaller logo area',
  );
}
