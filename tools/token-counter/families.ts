/**
 * Model names → the family, the tokenizer that counts, whether the count is exact and the
 * model table's entry. A name resolves only as it is written somewhere true: an OpenAI
 * encoding name, an id or documented alias in the model table (prices.json), or an OpenAI
 * model name tiktoken knows. Anything else is UNSUPPORTED_OPTION naming the nearest known
 * names: a guess would answer another model's context window and prices.
 */
import { quote, ToolInputError } from '#tool-kit';
import { type EncodingName, TIKTOKEN_ENCODINGS } from './encoding-names.js';
import { isEncoding, MODELS, openAIEncoding } from './encodings.js';
import { ESTIMATES, type EstimateSpec } from './estimates.js';
import { nearNames } from './near.js';
import { type PriceEntry, priceFor, TABLE_NAMES, type Tokenizer } from './prices.js';

export type Family = 'openai' | 'llama3' | 'mistral' | 'claude' | 'gemini';

export interface ResolvedModel {
  family: Family;
  /** The model name as recognised (lower-cased); absent when an OpenAI encoding was named. */
  model?: string;
  /** The tokenizer that counts: the model's own, or the proxy of an estimate. */
  encoding: EncodingName;
  /** Present for estimates. */
  estimate?: EstimateSpec;
  /** The model table's entry: context window and prices. */
  entry?: PriceEntry;
}

/**
 * Vendor prefixes a name may carry as the vendor writes it: Hugging Face organisations and
 * the Gemini API's resource names. The entry found must be of that vendor's family.
 */
const VENDOR_PREFIXES: [string, Family][] = [
  ['meta-llama/', 'llama3'],
  ['mistralai/', 'mistral'],
  ['models/', 'gemini'],
];

function counting(tokenizer: Tokenizer): Pick<ResolvedModel, 'family' | 'encoding' | 'estimate'> {
  switch (tokenizer) {
    case 'llama3':
      return { family: 'llama3', encoding: 'llama3' };
    case 'mistral-v1':
      return { family: 'mistral', encoding: 'mistral-v1' };
    case 'mistral-v3':
    case 'mistral-tekken':
    case 'claude':
    case 'gemini': {
      const estimate = ESTIMATES[tokenizer];
      const family = tokenizer === 'claude' || tokenizer === 'gemini' ? tokenizer : 'mistral';
      return { family, encoding: estimate.proxy, estimate };
    }
    default:
      return { family: 'openai', encoding: tokenizer };
  }
}

function fromTable(name: string): PriceEntry | undefined {
  const entry = priceFor(name);
  if (entry) return entry;
  for (const [prefix, family] of VENDOR_PREFIXES) {
    if (!name.startsWith(prefix)) continue;
    const found = priceFor(name.slice(prefix.length));
    return found && counting(found.tokenizer).family === family ? found : undefined;
  }
  return undefined;
}

/** Every name a model may be given as (for the nearest names an error suggests). */
const KNOWN_NAMES = [...TIKTOKEN_ENCODINGS.filter((e) => e !== 'gpt2'), ...TABLE_NAMES, ...MODELS];

/** What the error lists besides the nearest names (bounded: about 500 characters). */
export const KNOWN =
  'OpenAI models (gpt-5, gpt-4.1, gpt-4o, o1, o3, o4-mini, gpt-4-turbo, gpt-4, gpt-3.5-turbo, text-embedding-3-small, ' +
  'their dated snapshots, ft: fine-tunes, legacy GPT-3) and encodings (o200k_base, cl100k_base, p50k_base, p50k_edit, r50k_base); ' +
  'Llama 3 (llama-3.1-8b, meta-llama/Llama-3.1-8B-Instruct, llama3.1:8b); Mistral (mistral-7b-v0.1, mixtral-8x7b, ' +
  'open-mistral-nemo, mistral-large-2411); Claude (claude-sonnet-4-5, claude-haiku-4-5); Gemini (gemini-2.5-pro, gemini-2.5-flash). ' +
  "Every name: the token counter's SKILL.md";

export function resolveModel(name: string): ResolvedModel {
  const wanted = name.trim().toLowerCase();
  if (isEncoding(wanted) && wanted !== 'gpt2') return { family: 'openai', encoding: wanted };
  const entry = fromTable(wanted);
  if (entry) return { model: wanted, ...counting(entry.tokenizer), entry };
  const encoding = openAIEncoding(wanted);
  if (encoding) return { family: 'openai', model: wanted, encoding };
  const near = nearNames(wanted, KNOWN_NAMES);
  throw new ToolInputError(
    `model ${quote(name)} is not a model or encoding this tool knows (names are exact: a model's id or an alias its vendor documents)` +
      `${near.length ? `; nearest: ${near.join(', ')}` : ''}; known: ${KNOWN}`,
    'UNSUPPORTED_OPTION',
  );
}
