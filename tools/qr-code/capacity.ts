/** QR capacity at version 40 (ISO/IEC 18004 table 7), for a clear "too much data" message. */
import type { Level } from './tool.js';

/** Bytes in byte mode, per error-correction level. */
export const MAX_BYTES: Record<Level, number> = { L: 2953, M: 2331, Q: 1663, H: 1273 };
/** Characters in alphanumeric mode (0-9, A-Z, space, $%*+-./:), per level. */
export const MAX_ALPHANUMERIC: Record<Level, number> = { L: 4296, M: 3391, Q: 2420, H: 1852 };
/** Digits in numeric mode, per level (the most any QR code holds). */
export const MAX_DIGITS: Record<Level, number> = { L: 7089, M: 5596, Q: 3993, H: 3057 };

export function tooMuchData(data: string, level: Level): string {
  const bytes = Buffer.byteLength(data, 'utf8');
  return (
    `data is ${bytes} bytes; the maximum at level ${level} is ${MAX_BYTES[level]} bytes ` +
    `(${MAX_ALPHANUMERIC[level]} if only 0-9, A-Z, space and $%*+-./:, ${MAX_DIGITS[level]} if digits only); ` +
    'shorten the data or use a lower error-correction level'
  );
}
