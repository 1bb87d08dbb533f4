/**
 * Byte-pair merging over symbol ids with a pair-priority table, for SentencePiece-style BPE
 * (Mistral's v1 tokenizer), where symbols are whole characters or byte-fallback tokens rather
 * than bytes. Same algorithm and tie-break as mistral-tokenizer-js (lowest priority first,
 * leftmost among equals) and the same min-heap as bpe.ts, so a long run without spaces costs
 * O(n log n) in typed arrays instead of seconds of object churn. Tests hold it to the library.
 */

// Heap keys pack (priority, start) into one exact double: priority * 2^26 + start (start < 64 Mi).
const SHIFT = 2 ** 26;

export interface PairTable {
  /** Priority of merging a then b (lower first), or -1 when they do not merge. */
  priority(a: number, b: number): number;
  /** The id a merge of a then b yields. */
  merged(a: number, b: number): number;
}

/** Merges `symbols` (ids) in place by priority and appends the resulting ids to `out`. */
export function mergeSymbols(symbols: number[], table: PairTable, out: number[]): void {
  const n = symbols.length;
  if (n < 2) {
    for (const id of symbols) out.push(id);
    return;
  }
  const ids = Int32Array.from(symbols);
  const end = new Int32Array(n);
  const prev = new Int32Array(n);
  const alive = new Uint8Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    end[i] = i + 1;
    prev[i] = i - 1;
  }
  const capacity = 3 * n;
  const keys = new Float64Array(capacity);
  const rights = new Int32Array(capacity);
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
  const priorityAt = (s: number): number => {
    const mid = end[s]!;
    if (mid >= n) return -1;
    return table.priority(ids[s]!, ids[mid]!);
  };

  for (let s = 0; s + 1 < n; s++) {
    const p = priorityAt(s);
    if (p < 0) continue;
    keys[size] = p * SHIFT + s;
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
    // Stale entry: the left part was absorbed, or either part has changed since the push.
    if (!alive[s] || mid >= n || end[mid] !== right) continue;
    ids[s] = table.merged(ids[s]!, ids[mid]!);
    end[s] = right;
    alive[mid] = 0;
    if (right < n) prev[right] = s;
    const before = prev[s]!;
    if (before >= 0) {
      const p = priorityAt(before);
      if (p >= 0) push(p * SHIFT + before, right);
    }
    const p = priorityAt(s);
    if (p >= 0) push(p * SHIFT + s, end[right]!);
  }
  for (let s = 0; s < n; s = end[s]!) out.push(ids[s]!);
}
