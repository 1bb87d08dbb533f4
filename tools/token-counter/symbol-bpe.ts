/**
 * Byte-pair merging over symbol ids with a pair-priority table, for SentencePiece-style BPE
 * (Mistral's v1 tokenizer), where symbols are whole characters or byte-fallback tokens rather
 * than bytes. Same algorithm and tie-break as mistral-tokenizer-js (lowest priority first,
 * leftmost among equals) and bpe.ts's merge loop (`mergeParts`, a min-heap), so a long run
 * without spaces costs O(n log n) in typed arrays instead of seconds of object churn. Tests
 * hold it to the library.
 */

import { mergeParts } from './bpe.js';

export interface PairTable {
  /** Priority of merging a then b (lower first), or -1 when they do not merge. */
  priority(a: number, b: number): number;
  /** The id a merge of a then b yields. */
  merged(a: number, b: number): number;
}

/** Merges `symbols` (ids) by priority and appends the resulting ids to `out`. */
export function mergeSymbols(symbols: number[], table: PairTable, out: number[]): void {
  const n = symbols.length;
  if (n < 2) {
    for (const id of symbols) out.push(id);
    return;
  }
  // ids[s]: the id of the part starting at s.
  const ids = Int32Array.from(symbols);
  const end = mergeParts(
    n,
    (s, mid) => table.priority(ids[s]!, ids[mid]!),
    (s, mid) => {
      ids[s] = table.merged(ids[s]!, ids[mid]!);
    },
  );
  for (let s = 0; s < n; s = end[s]!) out.push(ids[s]!);
}
