/**
 * The open-weight tokenizers, each imported only when a model of its family is asked for
 * (llama3-tokenizer-js is a 3 MB module with its vocabulary baked in, ~0.4 s to load).
 * Both encode ordinary text only: special-token strings such as <|eot_id|> or [INST] in the
 * text are split like any other characters, as this tool does for OpenAI models.
 */
import { buildRankTableFromTokens, encodeOrdinary } from './bpe.js';
import type { Encoder } from './encodings.js';
import { mergeSymbols } from './symbol-bpe.js';

/** GPT-2's byte-level alphabet: the character each byte is written as in Llama 3's vocabulary. */
function byteLevelDecoder(): Map<string, number> {
  const bytes: number[] = [];
  for (let b = 33; b <= 126; b++) bytes.push(b);
  for (let b = 161; b <= 172; b++) bytes.push(b);
  for (let b = 174; b <= 255; b++) bytes.push(b);
  const chars = bytes.map((b) => String.fromCharCode(b));
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    if (!bytes.includes(b)) {
      bytes.push(b);
      chars.push(String.fromCharCode(256 + extra++));
    }
  }
  return new Map(chars.map((c, i) => [c, bytes[i]!]));
}

/**
 * Meta's Llama 3 split pattern (llama3/tokenizer.py), with `(?i:'s|...)` spelled out for
 * JavaScript as js-tiktoken writes cl100k_base's identical pattern.
 */
const LLAMA3_PATTERN =
  "('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** Number of ordinary (mergeable) tokens in Llama 3's vocabulary; 128000.. are special. */
const LLAMA3_ORDINARY = 128_000;

/**
 * Llama 3 is a tiktoken BPE (Meta's reference tokenizer runs tiktoken): its ranks are the
 * ids of the 128,000 ordinary tokens of llama3-tokenizer-js's vocabulary, run through the
 * same heap-based BPE as the OpenAI encodings. Tests hold it to llama3-tokenizer-js's encode.
 */
async function buildLlama3(): Promise<Encoder> {
  const { default: tokenizer } = await import('llama3-tokenizer-js');
  const decoder = byteLevelDecoder();
  const tokens = tokenizer.vocabById
    .slice(0, LLAMA3_ORDINARY)
    .map((piece) => String.fromCharCode(...Array.from(piece, (c) => decoder.get(c) ?? 0x3f)));
  const table = buildRankTableFromTokens(tokens);
  return {
    encode: (text) => encodeOrdinary(text, LLAMA3_PATTERN, table),
    tokenBytes: (id) => Buffer.from(table.tokens[id] ?? '', 'latin1'),
  };
}

/** Llama 3's special tokens as the chat template writes them. */
export const LLAMA3_SPECIAL = {
  beginOfText: 128000,
  startHeader: 128006,
  endHeader: 128007,
  endOfTurn: 128009,
} as const;

const BYTE_PIECE = /^<0x([0-9A-F]{2})>$/;
const byteToken = (byte: number) => `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`;

/**
 * Mistral's v1 SentencePiece BPE (Mistral 7B v0.1/v0.2, Mixtral 8x7B) with its dummy prefix
 * space, as `tokenizer.encode(text, add_special_tokens=False)` gives. The text is cut before
 * every space that follows a character other than a space or U+2581 and each part is encoded alone (repeated
 * parts from a cache): no vocabulary entry holds "▁" after another character, so no merge
 * crosses such a cut and the ids equal one pass over the whole text. Each part is merged by
 * symbol-bpe.ts over the library's vocabulary and merge table (its own encode takes ~4 s on
 * 1 MB of prose and ~7 s on a million letters without a space).
 */
async function buildMistral(): Promise<Encoder> {
  const { default: tokenizer } = await import('mistral-tokenizer-js');
  const encoder = new TextEncoder();
  const { vocabById, vocabByString, merges } = tokenizer;
  const table = {
    priority: (a: number, b: number) => merges.get(`${vocabById[a]} ${vocabById[b]}`) ?? -1,
    merged: (a: number, b: number) => vocabByString.get(`${vocabById[a]}${vocabById[b]}`) ?? 0,
  };
  /** Characters → symbol ids, unknown characters as their UTF-8 byte tokens (byte fallback). */
  const symbols = (part: string): number[] => {
    const ids: number[] = [];
    for (const c of part.replaceAll(' ', '\u2581')) {
      const id = vocabByString.get(c);
      if (id !== undefined) ids.push(id);
      else for (const byte of encoder.encode(c)) ids.push(vocabByString.get(byteToken(byte)) ?? 0);
    }
    return ids;
  };
  return {
    encode: (text) => {
      if (text.length === 0) return [];
      const out: number[] = [];
      const cache = new Map<string, number[]>();
      const whole = ` ${text}`;
      let start = 0;
      const flush = (end: number) => {
        const part = whole.slice(start, end);
        let ids = cache.get(part);
        if (!ids) {
          ids = [];
          mergeSymbols(symbols(part), table, ids);
          if (cache.size < 50_000) cache.set(part, ids);
        }
        for (const id of ids) out.push(id);
        start = end;
      };
      for (let i = 1; i < whole.length; i++) {
        const before = whole.charCodeAt(i - 1);
        // A literal U+2581 reads as a space too: never cut after one.
        if (whole.charCodeAt(i) === 0x20 && before !== 0x20 && before !== 0x2581) flush(i);
      }
      flush(whole.length);
      return out;
    },
    tokenBytes: (id) => {
      const piece = tokenizer.vocabById[id] ?? '';
      const byte = BYTE_PIECE.exec(piece);
      if (byte) return Uint8Array.of(Number.parseInt(byte[1]!, 16));
      return encoder.encode(piece.replaceAll('\u2581', ' '));
    },
  };
}

const cache = new Map<string, Promise<Encoder>>();

function cached(key: string, build: () => Promise<Encoder>): Promise<Encoder> {
  let pending = cache.get(key);
  if (!pending) {
    pending = build();
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}

export const loadLlama3 = () => cached('llama3', buildLlama3);
export const loadMistral = () => cached('mistral-v1', buildMistral);
