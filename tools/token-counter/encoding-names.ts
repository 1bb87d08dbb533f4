/**
 * The tokenizers a result can name, in a module of their own: tool.ts (its output schema's
 * enum) and the implementation share them, and tool.ts, which the API process imports,
 * must not load encodings.ts's libraries.
 */

/** OpenAI's tiktoken encodings (js-tiktoken 1.0.21 ships these; it has no o200k_harmony). */
export const TIKTOKEN_ENCODINGS = [
  'o200k_base',
  'cl100k_base',
  'p50k_base',
  'p50k_edit',
  'r50k_base',
  'gpt2',
] as const;
export type TiktokenEncoding = (typeof TIKTOKEN_ENCODINGS)[number];
/** Every tokenizer a result can name: the tiktoken encodings, Llama 3's and Mistral's v1 SentencePiece. */
export const ENCODINGS = [...TIKTOKEN_ENCODINGS, 'llama3', 'mistral-v1'] as const;
export type EncodingName = (typeof ENCODINGS)[number];
