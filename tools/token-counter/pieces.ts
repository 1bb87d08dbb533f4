/**
 * Turns one token's bytes into a readable piece. A BPE token may hold only part of a
 * multi-byte UTF-8 character (an emoji often spans two or three tokens), so decoding it
 * alone would yield U+FFFD and hide which bytes it holds. Complete characters are kept
 * as text; each byte of an incomplete or invalid sequence is written as `\xHH`
 * (upper-case hex), e.g. the first token of some emoji reads `\xF0\x9F`.
 */

const strict = new TextDecoder('utf-8', { fatal: true });

/** Length of the UTF-8 sequence a lead byte announces (0: not a lead byte). */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function escapeByte(byte: number): string {
  return `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

export function pieceText(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes[i]!);
    if (length > 0 && i + length <= bytes.length) {
      try {
        // The platform decoder decides validity (overlongs, surrogates, range).
        out += strict.decode(bytes.subarray(i, i + length));
        i += length;
        continue;
      } catch {
        // Invalid sequence: fall through and escape the lead byte.
      }
    }
    out += escapeByte(bytes[i]!);
    i += 1;
  }
  return out;
}
