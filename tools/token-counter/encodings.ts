/**
 * Model/encoding names → a cached encoder over the rank files js-tiktoken ships
 * (`js-tiktoken/ranks/*`, no network). Each file is imported only when first needed:
 * building a table takes a few hundred ms and tens of MB (o200k_base is the largest).
 */
import { getEncodingNameForModel, type TiktokenBPE, type TiktokenModel } from 'js-tiktoken/lite';
import { buildRankTable, encodeOrdinary } from './bpe.js';
import { TIKTOKEN_ENCODINGS, type TiktokenEncoding } from './encoding-names.js';

/** Canonical model names listed in errors and docs (dated variants resolve too). */
export const MODELS = [
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-4.5-preview',
  'gpt-4o',
  'gpt-4o-mini',
  'chatgpt-4o-latest',
  'o1',
  'o1-mini',
  'o1-pro',
  'o3',
  'o3-mini',
  'o4-mini',
  'gpt-oss-120b',
  'gpt-oss-20b',
  'gpt-4',
  'gpt-4-turbo',
  'gpt-4-32k',
  'gpt-3.5-turbo',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-embedding-ada-002',
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
const OVERRIDES: Record<string, TiktokenEncoding> = {
  'davinci-002': 'cl100k_base',
  'babbage-002': 'cl100k_base',
};

// Families with dated or future variants, after tiktoken's MODEL_PREFIX_TO_ENCODING (more specific first).
const PREFIXES: [string, TiktokenEncoding][] = [
  ['ft:gpt-4o', 'o200k_base'],
  ['ft:gpt-4.1', 'o200k_base'],
  ['ft:gpt-4', 'cl100k_base'],
  ['ft:gpt-3.5-turbo', 'cl100k_base'],
  ['ft:davinci-002', 'cl100k_base'],
  ['ft:babbage-002', 'cl100k_base'],
  ['gpt-5', 'o200k_base'],
  // tiktoken names o200k_harmony for gpt-oss: o200k_base's ranks and pattern plus special
  // tokens, which this counter reads as plain text, so o200k_base gives the same counts
  // (js-tiktoken 1.0.21 ships no o200k_harmony).
  ['gpt-oss-', 'o200k_base'],
  ['gpt-4.5-', 'o200k_base'],
  ['gpt-4.1-', 'o200k_base'],
  ['chatgpt-4o-', 'o200k_base'],
  ['gpt-4o-', 'o200k_base'],
  ['o1-', 'o200k_base'],
  ['o3-', 'o200k_base'],
  ['o4-mini-', 'o200k_base'],
  ['gpt-4-', 'cl100k_base'],
  ['gpt-3.5-turbo-', 'cl100k_base'],
  ['gpt-35-turbo-', 'cl100k_base'],
  ['text-embedding-3-', 'cl100k_base'],
];

function isEncoding(name: string): name is TiktokenEncoding {
  return (TIKTOKEN_ENCODINGS as readonly string[]).includes(name);
}

export interface Resolved {
  encoding: TiktokenEncoding;
  /** The model name as recognised (lower-cased), when a model rather than an encoding was given. */
  model?: string;
}

/** Resolves an OpenAI model or encoding name (case-insensitive); unknown → undefined. */
export function resolveOpenAI(name: string): Resolved | undefined {
  const wanted = name.trim().toLowerCase();
  if (isEncoding(wanted) && wanted !== 'gpt2') return { encoding: wanted };
  // Own keys only: "__proto__" or "constructor" must not find Object.prototype members.
  const override = Object.hasOwn(OVERRIDES, wanted) ? OVERRIDES[wanted] : undefined;
  if (override) return { encoding: override, model: wanted };
  try {
    const encoding = getEncodingNameForModel(wanted as TiktokenModel);
    if (isEncoding(encoding)) return { encoding, model: wanted };
  } catch {
    // Not an exact model name: try the families below.
  }
  const family = PREFIXES.find(([prefix]) => wanted.startsWith(prefix));
  if (family) return { encoding: family[1], model: wanted };
  return undefined;
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
}

function buildEncoder(bpe: TiktokenBPE): Encoder {
  const table = buildRankTable(bpe.bpe_ranks);
  return {
    encode: (text) => encodeOrdinary(text, bpe.pat_str, table),
    tokenBytes: (id) => Buffer.from(table.tokens[id] ?? '', 'latin1'),
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
