/**
 * The one bound on JSON nesting for every door (docs/api.md, "Before the limits: junk,
 * pressure, shutdown"): text whose arrays and objects nest deeper than this is refused
 * INVALID_INPUT before it is parsed. The deepest JSON value a tool takes is
 * structured-output-validator's `target`, 512 levels; the deepest envelope around a tool's
 * input is an item of a batch request (`{"runs":[{"input":{"target": …}}]}`, 4 levels). 600 covers both
 * with room, and stays far below the few thousand levels where recursive code on the API
 * thread (serialising, the MCP SDK's validation) runs out of stack.
 */
export const MAX_JSON_DEPTH = 600;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** `[` and `{` (0x5b, 0x7b) with bit 0x20 set are both 0x7b; `]` and `}` are both 0x7d. */
const OPENER = 0x7b;
const CLOSER = 0x7d;

/**
 * True when the JSON text nests arrays and objects more than `max` levels deep (`[]` is one
 * level). One pass over the text, no allocation, stopping at the first level past the bound:
 * a 4 MB `[[[…` is refused after `max + 1` characters, where JSON.parse would build the whole
 * value first (docs/benchmarks.md, "The JSON depth scan"). Brackets inside strings do not count.
 *
 * Exact for valid JSON. For text that is not JSON the answer is either; the parser that
 * follows refuses such text anyway, and a prefix the parser accepts nests exactly as counted.
 */
export function jsonDepthExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  // Nesting past `max` takes max + 1 openers and as many closers.
  if (text.length < 2 * (max + 1)) return false;
  const end = text.length;
  let depth = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i + 1);
      continue;
    }
    // One comparison for both openers and one for both closers: no other code unit maps there.
    const bracket = c | 0x20;
    if (bracket === OPENER) {
      if (++depth > max) return true;
    } else if (bracket === CLOSER) {
      // More closers than openers: not JSON, and nothing deeper can follow in valid text.
      if (--depth < 0) return false;
    }
  }
  return false;
}

/**
 * Index of the quote that ends the string whose contents start at `from`, or the text's
 * length when it never ends. A quote ends the string when an even number of backslashes
 * precedes it (`\\"` ends, `\"` does not). indexOf keeps long strings, the bulk of most
 * bodies, off the per-character loop.
 */
function closingQuote(text: string, from: number): number {
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let b = q - 1;
    while (b >= from && text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    from = q + 1;
  }
}
