/**
 * Ordinary (no special tokens) BPE encoding over the rank files js-tiktoken ships.
 *
 * Hand-written because js-tiktoken's own `encode` merges each pre-tokenised piece
 * with a quadratic loop over comma-joined byte keys: one 5,000-letter word takes ~2 s
 * and a 1 MiB run of one letter would never finish. This is the same algorithm (merge
 * the lowest-ranked adjacent pair, leftmost first) driven by a min-heap over byte
 * strings, O(n log n) per piece. The tests hold it to `Tiktoken.encode`'s output.
 */

/** Ranks keyed by the token's bytes as a binary string (one char per byte, 0–255). */
export interface RankTable {
  ranks: Map<string, number>;
  /** rank → bytes as a binary string. */
  tokens: string[];
  /** Longest token in bytes: longer pairs cannot merge, so they are never looked up. */
  maxTokenBytes: number;
}

/** Parses js-tiktoken's `bpe_ranks` text: lines of `<tag> <first rank> <base64 token>...`. */
export function buildRankTable(bpeRanks: string): RankTable {
  const ranks = new Map<string, number>();
  const tokens: string[] = [];
  let maxTokenBytes = 1;
  for (const line of bpeRanks.split('\n')) {
    if (!line) continue;
    const [, offsetText, ...encoded] = line.split(' ');
    const offset = Number.parseInt(offsetText ?? '', 10);
    encoded.forEach((b64, i) => {
      const bytes = atob(b64);
      ranks.set(bytes, offset + i);
      tokens[offset + i] = bytes;
      if (bytes.length > maxTokenBytes) maxTokenBytes = bytes.length;
    });
  }
  return { ranks, tokens, maxTokenBytes };
}

/** A rank table from the tokens in rank order, each as a binary string (one char per byte). */
export function buildRankTableFromTokens(tokens: readonly string[]): RankTable {
  const ranks = new Map<string, number>();
  let maxTokenBytes = 1;
  tokens.forEach((bytes, rank) => {
    ranks.set(bytes, rank);
    if (bytes.length > maxTokenBytes) maxTokenBytes = bytes.length;
  });
  return { ranks, tokens: [...tokens], maxTokenBytes };
}

// Heap keys pack (rank, start) into one exact double: rank * 2^26 + start (start < 64 Mi).
const SHIFT = 2 ** 26;

/**
 * The merge loop of both BPEs here (this file's byte-level one and symbol-bpe.ts's): `n`
 * symbols start as one part each; the adjacent pair of lowest rank is merged, leftmost
 * among equals, until no pair has a rank. A min-heap in typed arrays makes it O(n log n).
 * `rankOf(s, mid, right)` ranks merging the part [s, mid) with [mid, right) (-1: they do
 * not merge); `onMerge(s, mid)` hears of each merge before the parts are joined. Returns
 * `end`, where the part starting at s ends: the parts are s = 0, end[0], end[end[0]], ... < n.
 */
export function mergeParts(
  n: number,
  rankOf: (s: number, mid: number, right: number) => number,
  onMerge?: (s: number, mid: number) => void,
): Int32Array {
  const end = new Int32Array(n); // end[s]: where the part starting at s ends
  const prev = new Int32Array(n); // prev[s]: start of the part before it (-1: none)
  const alive = new Uint8Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    end[i] = i + 1;
    prev[i] = i - 1;
  }
  // Min-heap of candidate merges in typed arrays: at most n - 1 initial pairs plus 2 per merge.
  const capacity = 3 * n;
  const keys = new Float64Array(capacity);
  const rights = new Int32Array(capacity); // the pair's end, to spot stale entries
  let size = 0;
  const siftDown = (from: number): void => {
    const key = keys[from]!;
    const right = rights[from]!;
    let i = from;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && keys[c + 1]! < keys[c]!) c++;
      if (keys[c]! >= key) break;
      keys[i] = keys[c]!;
      rights[i] = rights[c]!;
      i = c;
    }
    keys[i] = key;
    rights[i] = right;
  };
  const push = (key: number, right: number): void => {
    let i = size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      rights[i] = rights[parent]!;
      i = parent;
    }
    keys[i] = key;
    rights[i] = right;
  };
  const rankOfPair = (s: number): number => {
    const mid = end[s]!;
    return mid >= n ? -1 : rankOf(s, mid, end[mid]!);
  };

  // Initial pairs go in unordered, then one O(n) heapify.
  for (let s = 0; s + 1 < n; s++) {
    const rank = rankOfPair(s);
    if (rank < 0) continue;
    keys[size] = rank * SHIFT + s;
    rights[size++] = s + 2;
  }
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);

  while (size > 0) {
    const s = keys[0]! % SHIFT;
    const right = rights[0]!;
    size--;
    if (size > 0) {
      keys[0] = keys[size]!;
      rights[0] = rights[size]!;
      siftDown(0);
    }
    const mid = end[s]!;
    // Stale entry: the left part was absorbed, or either part has grown since the push.
    if (!alive[s] || mid >= n || end[mid] !== right) continue;
    onMerge?.(s, mid);
    end[s] = right;
    alive[mid] = 0;
    if (right < n) prev[right] = s;
    const before = prev[s]!;
    if (before >= 0) {
      const rank = rankOfPair(before);
      if (rank >= 0) push(rank * SHIFT + before, right);
    }
    const rank = rankOfPair(s);
    if (rank >= 0) push(rank * SHIFT + s, end[right]!);
  }
  return end;
}

/** Byte-pair merges one piece (a binary string of length >= 2) into token ids. */
function mergePiece(bin: string, table: RankTable, out: number[]): void {
  const { ranks, maxTokenBytes } = table;
  const end = mergeParts(bin.length, (s, _mid, right) =>
    right - s > maxTokenBytes ? -1 : (ranks.get(bin.slice(s, right)) ?? -1),
  );
  for (let s = 0; s < bin.length; s = end[s]!) {
    const rank = ranks.get(bin.slice(s, end[s]!));
    if (rank !== undefined) out.push(rank);
  }
}

/** Appends the ids of one pre-tokenised piece of text to `out`. */
function encodePiece(piece: string, table: RankTable, out: number[]): void {
  // UTF-8 bytes as a binary string; lone surrogates become EF BF BD, as with TextEncoder.
  const bin = Buffer.from(piece, 'utf8').toString('latin1');
  const whole = table.ranks.get(bin);
  // Same shortcut as js-tiktoken: a piece that is itself a token is not merged.
  if (whole !== undefined) out.push(whole);
  else mergePiece(bin, table, out);
}

/**
 * Encodes `text` as ordinary text: special-token strings such as `<|endoftext|>` are
 * split like any other text, as js-tiktoken's `encode(text, [], [])` does.
 */
export function encodeOrdinary(text: string, patStr: string, table: RankTable): number[] {
  const out: number[] = [];
  for (const match of text.matchAll(new RegExp(patStr, 'gu'))) encodePiece(match[0], table, out);
  return out;
}

/**
 * The sum over the pieces `patStr` cuts `text` into of `weigh(piece)` times the piece's
 * token count: how an estimate counts with another tokenizer's pre-split (estimates.ts).
 */
export function weightedCount(
  text: string,
  patStr: string,
  table: RankTable,
  weigh: (piece: string) => number,
): number {
  const ids: number[] = [];
  let sum = 0;
  for (const match of text.matchAll(new RegExp(patStr, 'gu'))) {
    ids.length = 0;
    encodePiece(match[0], table, ids);
    sum += weigh(match[0]) * ids.length;
  }
  return sum;
}
