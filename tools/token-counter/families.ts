/**
 * Model names → the family, the tokenizer that counts and whether the count is exact.
 * OpenAI names resolve as before (encodings.ts); Llama 3 and Mistral's v1 models are
 * exact; Claude, Gemini and the Mistral models with other tokenizers are estimates
 * (estimates.ts). Anything else is UNSUPPORTED_OPTION listing what is known.
 */
import { unsupported } from '#tool-kit';
import { type EncodingName, TIKTOKEN_ENCODINGS } from './encoding-names.js';
import { MODELS, resolveOpenAI } from './encodings.js';
import { ESTIMATES, type EstimatedFamily, type EstimateSpec } from './estimates.js';

export type Family = 'openai' | 'llama3' | 'mistral' | 'claude' | 'gemini';

export interface ResolvedModel {
  family: Family;
  /** The model name as recognised (lower-cased); absent when an OpenAI encoding was named. */
  model?: string;
  /** The tokenizer that counts: the model's own, or the proxy of an estimate. */
  encoding: EncodingName;
  /** Present for estimates. */
  estimate?: EstimateSpec;
  /** The id to look up in the price table (prices.json); defaults to model. */
  priceId?: string;
}

const LLAMA3 = /^(?:meta-llama\/)?(?:meta-)?llama-?3(\.[0-3])?(?:$|[-:_ ](.*)$)/;
const LLAMA_SIZE = /(?:^|[-:_ ])(\d+)b(?:$|[-:_ ])/;

interface MistralRule {
  pattern: RegExp;
  kind: 'exact' | EstimatedFamily;
  priceId?: (name: string) => string | undefined;
}

/** More specific first. v1: Mistral 7B v0.1/v0.2 and Mixtral 8x7B; v3: 7B v0.3, 8x22B, Codestral 22B; Tekken: NeMo and later. */
const MISTRAL_RULES: MistralRule[] = [
  {
    pattern: /^(?:mistral-7b(?:-instruct)?(?:-v0\.[12])?|open-mistral-7b-v0\.[12])$/,
    kind: 'exact',
    priceId: (n) => (/v0\.2$/.test(n) ? 'mistral-7b-v0.2' : 'mistral-7b-v0.1'),
  },
  {
    pattern: /^(?:open-)?mixtral-8x7b(?:-instruct)?(?:-v0\.1)?$/,
    kind: 'exact',
    priceId: (n) => (n.startsWith('open-') ? 'open-mixtral-8x7b' : 'mixtral-8x7b'),
  },
  {
    pattern: /^(?:mistral-7b(?:-instruct)?-v0\.3|open-mistral-7b(?:-v0\.3)?)$/,
    kind: 'mistral-v3',
    priceId: (n) => (n.startsWith('open-') ? 'open-mistral-7b' : undefined),
  },
  {
    pattern: /^(?:open-)?mixtral-8x22b(?:-instruct)?(?:-v0\.1)?$/,
    kind: 'mistral-v3',
    priceId: (n) => (n.startsWith('open-') ? 'open-mixtral-8x22b' : undefined),
  },
  {
    pattern: /^(?:codestral-22b.*|codestral-2405|(?:open-)?codestral-mamba.*|mistral-(?:large|small)-2402)$/,
    kind: 'mistral-v3',
  },
  {
    pattern:
      /^(?:(?:open-)?mistral-nemo.*|mistral-(?:large|small|medium)(?:-.*)?|ministral-.*|pixtral-.*|codestral(?:-latest|-25\d\d.*)?|magistral-.*|devstral-.*)$/,
    kind: 'mistral-tekken',
    priceId: (n) =>
      /^(?:open-)?mistral-nemo/.test(n)
        ? 'open-mistral-nemo'
        : n === 'mistral-large-latest'
          ? 'mistral-large-2411'
          : n === 'mistral-small-latest'
            ? 'mistral-small-2503'
            : n === 'codestral-latest' || n === 'codestral'
              ? 'codestral-2501'
              : undefined,
  },
];

/** What the error lists (bounded: about 900 characters). */
export const KNOWN = [
  ...TIKTOKEN_ENCODINGS.filter((e) => e !== 'gpt2'),
  ...MODELS,
  'Llama 3 (llama-3-8b, llama-3.1-70b, llama-3.2-3b, llama-3.3-70b, meta-llama/…)',
  'Mistral (mistral-7b-v0.1, mistral-7b-v0.2, mixtral-8x7b exact; mistral-7b-v0.3, mixtral-8x22b, codestral, mistral-nemo, mistral-large, mistral-small, ministral-*, pixtral-* estimated)',
  'Claude (claude-*, estimated)',
  'Gemini (gemini-*, estimated)',
];

export function resolveModel(name: string): ResolvedModel {
  const wanted = name.trim().toLowerCase();
  const openai = resolveOpenAI(wanted);
  if (openai) return { family: 'openai', ...openai };

  const llama = LLAMA3.exec(wanted);
  if (llama) {
    const size = LLAMA_SIZE.exec(llama[2] ? ` ${llama[2]}` : '')?.[1];
    const priceId = size ? `llama-3${llama[1] ?? ''}-${size}b` : undefined;
    return { family: 'llama3', model: wanted, encoding: 'llama3', ...(priceId ? { priceId } : {}) };
  }

  const bare = wanted.replace(/^mistralai\//, '');
  for (const rule of MISTRAL_RULES) {
    if (!rule.pattern.test(bare)) continue;
    const priceId = rule.priceId?.(bare) ?? bare;
    if (rule.kind === 'exact') return { family: 'mistral', model: wanted, encoding: 'mistral-v1', priceId };
    const estimate = ESTIMATES[rule.kind];
    return { family: 'mistral', model: wanted, encoding: estimate.proxy, estimate, priceId };
  }

  if (/^claude-[a-z0-9.-]+$/.test(wanted)) {
    return { family: 'claude', model: wanted, encoding: ESTIMATES.claude.proxy, estimate: ESTIMATES.claude };
  }
  const gemini = /^(?:models\/)?(gemini-[a-z0-9.-]+)$/.exec(wanted);
  if (gemini) {
    return {
      family: 'gemini',
      model: wanted,
      encoding: ESTIMATES.gemini.proxy,
      estimate: ESTIMATES.gemini,
      priceId: gemini[1]!,
    };
  }
  throw unsupported('model', name, KNOWN);
}
