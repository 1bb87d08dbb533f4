/**
 * The model table the token counter answers from: prices.json (`sources`, the vendor pages
 * by key, and `entries`, one per model), this module its typed loader, validation and
 * lookup. An entry names a model (its `id` and the `aliases` its vendor documents for the
 * same model: a dated snapshot, a `-latest` name, a Hugging Face or Ollama name), the
 * tokenizer that counts it, its context window and list prices, each with its own date and
 * source: prices change, and the answer says which figures it used (`cost.pricesAsOf`,
 * `cost.source`). Prices are USD per million tokens (standard tier, no batch or cache
 * discount; where a vendor tiers by prompt length, the lowest tier). `null` means no
 * published list price (open-weight models, embeddings' output). The table is validated
 * when the module loads: a malformed entry fails the worker's first run and prices.test.ts
 * with a message naming the entry.
 *
 * A name finds an entry only as its id or one of its aliases, never by a prefix: a dated
 * name the vendor does not document as the same model (gpt-4-1106-preview is GPT-4 Turbo,
 * not GPT-4) must not borrow another model's window and prices.
 */
import { TIKTOKEN_ENCODINGS } from './encoding-names.js';
import table from './prices.json' with { type: 'json' };

/** Who counts a model: a tiktoken encoding, an open-weight tokenizer, or an estimate (estimates.ts). */
export const TOKENIZERS = [
  ...TIKTOKEN_ENCODINGS.filter((e) => e !== 'gpt2' && e !== 'p50k_edit'),
  'llama3',
  'mistral-v1',
  'mistral-v3',
  'mistral-tekken',
  'claude',
  'gemini',
] as const;
export type Tokenizer = (typeof TOKENIZERS)[number];

export interface PriceEntry {
  /** Lower-case model id as the vendor names it. */
  id: string;
  /** Other names the vendor documents for this same model (lower case). */
  aliases?: string[];
  tokenizer: Tokenizer;
  /** Context window in tokens (prompt + output where the vendor counts them together). */
  contextWindow: number;
  /** USD per million input tokens, or null when there is no published list price. */
  input: number | null;
  /** USD per million output tokens, or null. */
  output: number | null;
  /** ISO date the figures were published or last changed (YYYY-MM-DD). */
  pricesAsOf: string;
  /** The vendor page the figures come from (in prices.json, a key of `sources` or the address). */
  source: string;
}

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const ID = /^[a-z0-9][a-z0-9.-]*$/;
/** An alias may also be an Ollama tag (llama3.1:8b). */
const ALIAS = /^[a-z0-9][a-z0-9.:-]*$/;
const price = (value: unknown) =>
  value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1000);

/** Every problem of the entries, one line each (empty when they are sound). */
export function priceProblems(entries: readonly PriceEntry[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const name = (where: string, value: unknown, pattern: RegExp, what: string) => {
    if (typeof value !== 'string' || !pattern.test(value))
      problems.push(`${where}: ${what} must be a lower-case model name`);
    else if (seen.has(value)) problems.push(`${where}: duplicate name ${value}`);
    else seen.add(value);
  };
  entries.forEach((entry, index) => {
    const where = `price table entry ${index} (${String(entry?.id)})`;
    name(where, entry?.id, ID, 'id');
    if (entry?.aliases !== undefined) {
      if (!Array.isArray(entry.aliases) || entry.aliases.length === 0)
        problems.push(`${where}: aliases must be a non-empty array when given`);
      else for (const alias of entry.aliases) name(where, alias, ALIAS, 'each alias');
    }
    if (!(TOKENIZERS as readonly unknown[]).includes(entry?.tokenizer))
      problems.push(`${where}: tokenizer must be one of ${TOKENIZERS.join(', ')}`);
    if (
      !Number.isInteger(entry?.contextWindow) ||
      entry.contextWindow < 1_000 ||
      entry.contextWindow > 10_000_000
    )
      problems.push(`${where}: contextWindow must be an integer 1000..10000000`);
    if (!price(entry?.input))
      problems.push(`${where}: input must be null or a USD price 0..1000 per million`);
    if (!price(entry?.output))
      problems.push(`${where}: output must be null or a USD price 0..1000 per million`);
    if (typeof entry?.pricesAsOf !== 'string' || !ISO_DATE.test(entry.pricesAsOf))
      problems.push(`${where}: pricesAsOf must be a YYYY-MM-DD date`);
    if (typeof entry?.source !== 'string' || !/^https:\/\/\S+/.test(entry.source))
      problems.push(`${where}: source must name one of the sources or be an https:// address`);
  });
  return problems;
}

export function validatePrices(entries: readonly PriceEntry[]): void {
  const problems = priceProblems(entries);
  if (problems.length > 0) throw new Error(`token-counter price table is malformed: ${problems.join('; ')}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The entries of a table shaped like prices.json, each source key replaced by its address,
 * validated: throws naming every malformed entry.
 */
export function pricesFrom(data: unknown): PriceEntry[] {
  if (!isRecord(data) || !isRecord(data.sources) || !Array.isArray(data.entries))
    throw new Error(
      'token-counter price table is malformed: prices.json must be { "sources": { key: address }, "entries": [...] }',
    );
  const sources = data.sources;
  const entries = data.entries.map((entry: unknown) =>
    isRecord(entry) && typeof entry.source === 'string' && Object.hasOwn(sources, entry.source)
      ? { ...entry, source: sources[entry.source] }
      : entry,
  ) as PriceEntry[];
  validatePrices(entries);
  return entries;
}

export const PRICES: readonly PriceEntry[] = pricesFrom(table);

const byName = new Map(
  PRICES.flatMap((entry) => [entry.id, ...(entry.aliases ?? [])].map((n) => [n, entry])),
);

/** Every name the table answers to: the ids and the aliases. */
export const TABLE_NAMES: readonly string[] = [...byName.keys()];

/** The entry a lower-cased name is the id or an alias of, or undefined. */
export function priceFor(model: string): PriceEntry | undefined {
  return byName.get(model);
}
