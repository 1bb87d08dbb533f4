/**
 * Model/encoding names → a cached encoder over the rank files js-tiktoken ships
 * (`js-tiktoken/ranks/*`, no network). Each file is imported only when first needed:
 * building a table takes a few hundred ms and tens of MB (o200k_base is the largest).
 */
import { getEncodingNameForModel, type TiktokenBPE, type TiktokenModel } from 'js-tiktoken/lite';
import { buildRankTable, encodeOrdinary, weightedCount } from './bpe.js';
import { TIKTOKEN_ENCODINGS, type TiktokenEncoding } from './encoding-names.js';

/**
 * OpenAI names that count exactly but have no entry in the model table (prices.json): no
 * context window or price is answered for them. Each is a name tiktoken maps, or one below.
 */
export const MODELS = [
  'gpt-4.5-preview',
  'chatgpt-4o-latest',
  'o1-mini',
  'o1-pro',
  'gpt-oss-120b',
  'gpt-oss-20b',
  'gpt-4-32k',
  'gpt-3.5-turbo-16k',
  'davinci-002',
  'babbage-002',
  'text-davinci-003',
  'text-davinci-002',
  'code-davinci-002',
  'text-davinci-edit-001',
  'davinci',
  'curie',
  'babbage',
  'ada',
  'gpt2',
] as const;

// OpenAI's reference tiktoken (Python) maps these to cl100k_base; js-tiktoken 1.0.21 differs.
// tiktoken names o200k_harmony for gpt-oss: o200k_base's ranks and pattern plus special
// tokens, which this counter reads as plain text, so o200k_base gives the same counts
// (js-tiktoken 1.0.21 ships no o200k_harmony, nor the gpt-oss names).
const OVERRIDES: Record<string, TiktokenEncoding> = {
  'davinci-002': 'cl100k_base',
  'babbage-002': 'cl100k_base',
  'gpt-oss-120b': 'o200k_base',
  'gpt-oss-20b': 'o200k_base',
};

export function isEncoding(name: string): name is TiktokenEncoding {
  return (TIKTOKEN_ENCODINGS as readonly string[]).includes(name);
}

/**
 * The tiktoken encoding of an OpenAI model name as tiktoken knows it: exact names only
 * (tiktoken's own prefix rules would count any gpt-4-* name, real or not). A fine-tuned
 * model (`ft:<base>:<org>:<suffix>:<id>`, OpenAI's naming) counts as its base.
 */
export function openAIEncoding(name: string): TiktokenEncoding | undefined {
  const base = /^ft:([^:]+):/.exec(name)?.[1] ?? name;
  // Own keys only: "__proto__" or "constructor" must not find Object.prototype members.
  if (Object.hasOwn(OVERRIDES, base)) return OVERRIDES[base];
  try {
    const encoding = getEncodingNameForModel(base as TiktokenModel);
    return isEncoding(encoding) ? encoding : undefined;
  } catch {
    return undefined;
  }
}

// gpt2 and r50k_base share ranks and pattern, as do p50k_edit and p50k_base (it only adds
// special tokens, which this tool encodes as text): one encoder serves both.
const RANK_FILES: Record<TiktokenEncoding, () => Promise<{ default: TiktokenBPE }>> = {
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
  p50k_base: () => import('js-tiktoken/ranks/p50k_base'),
  p50k_edit: () => import('js-tiktoken/ranks/p50k_base'),
  r50k_base: () => import('js-tiktoken/ranks/r50k_base'),
  gpt2: () => import('js-tiktoken/ranks/r50k_base'),
};

export interface Encoder {
  /** Token ids of `text`, special-token strings encoded as ordinary text. */
  encode(text: string): number[];
  /** The bytes a token id stands for (empty for an unknown id). */
  tokenBytes(id: number): Uint8Array;
  /** tiktoken encodings only: the weighted count of `text` cut by another pre-split (bpe.ts). */
  weightedCount?(text: string, split: string, weigh: (piece: string) => number): number;
}

function buildEncoder(bpe: TiktokenBPE): Encoder {
  const table = buildRankTable(bpe.bpe_ranks);
  return {
    encode: (text) => encodeOrdinary(text, bpe.pat_str, table),
    tokenBytes: (id) => Buffer.from(table.tokens[id] ?? '', 'latin1'),
    weightedCount: (text, split, weigh) => weightedCount(text, split, table, weigh),
  };
}

// Per-worker cache of built encoders (the only state kept between runs).
const cache = new Map<string, Promise<Encoder>>();

export function loadTiktoken(encoding: TiktokenEncoding): Promise<Encoder> {
  const file = encoding === 'gpt2' ? 'r50k_base' : encoding === 'p50k_edit' ? 'p50k_base' : encoding;
  let pending = cache.get(file);
  if (!pending) {
    pending = RANK_FILES[encoding]().then(({ default: bpe }) => buildEncoder(bpe));
    pending.catch(() => cache.delete(file));
    cache.set(file, pending);
  }
  return pending;
}
