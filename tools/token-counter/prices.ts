/**
 * The one table of context windows and list prices the token counter answers from.
 * Each entry carries its own date and source: prices change, and the answer says which
 * figures it used (`cost.pricesAsOf`, `cost.source`). Prices are USD per million tokens
 * (standard tier, no batch or cache discount; where a vendor tiers by prompt length, the
 * lowest tier). `null` means no published list price (open-weight models, embeddings'
 * output). `validatePrices` runs when the module loads: a malformed entry fails the
 * worker's first run and prices.test.ts with a message naming the entry.
 *
 * An entry applies to its id and to dated or tagged variants of it: the id followed by
 * `-` and a date (2024-08-06, 20250514, 2407) or one of `latest`, `instruct`, `chat`.
 */

export interface PriceEntry {
  /** Lower-case model id as the vendor's API names it. */
  id: string;
  /** Context window in tokens (prompt + output where the vendor counts them together). */
  contextWindow: number;
  /** USD per million input tokens, or null when there is no published list price. */
  input: number | null;
  /** USD per million output tokens, or null. */
  output: number | null;
  /** ISO date the figures were published or last changed (YYYY-MM-DD). */
  pricesAsOf: string;
  /** The vendor page the figures come from. */
  source: string;
}

const OPENAI = 'https://openai.com/api/pricing/';
const ANTHROPIC = 'https://docs.anthropic.com/en/docs/about-claude/pricing';
const GOOGLE = 'https://ai.google.dev/gemini-api/docs/pricing';
const MISTRAL = 'https://mistral.ai/pricing#api-pricing';
const META = 'https://github.com/meta-llama/llama-models (model cards; open weights, no list price)';
const MISTRAL_OPEN = 'https://docs.mistral.ai/getting-started/models/ (open weights)';

export const PRICES: readonly PriceEntry[] = [
  // OpenAI
  { id: 'gpt-5', contextWindow: 400_000, input: 1.25, output: 10, pricesAsOf: '2025-08-07', source: OPENAI },
  {
    id: 'gpt-5-mini',
    contextWindow: 400_000,
    input: 0.25,
    output: 2,
    pricesAsOf: '2025-08-07',
    source: OPENAI,
  },
  {
    id: 'gpt-5-nano',
    contextWindow: 400_000,
    input: 0.05,
    output: 0.4,
    pricesAsOf: '2025-08-07',
    source: OPENAI,
  },
  { id: 'gpt-4.1', contextWindow: 1_047_576, input: 2, output: 8, pricesAsOf: '2025-04-14', source: OPENAI },
  {
    id: 'gpt-4.1-mini',
    contextWindow: 1_047_576,
    input: 0.4,
    output: 1.6,
    pricesAsOf: '2025-04-14',
    source: OPENAI,
  },
  {
    id: 'gpt-4.1-nano',
    contextWindow: 1_047_576,
    input: 0.1,
    output: 0.4,
    pricesAsOf: '2025-04-14',
    source: OPENAI,
  },
  { id: 'gpt-4o', contextWindow: 128_000, input: 2.5, output: 10, pricesAsOf: '2024-08-06', source: OPENAI },
  {
    id: 'gpt-4o-mini',
    contextWindow: 128_000,
    input: 0.15,
    output: 0.6,
    pricesAsOf: '2024-07-18',
    source: OPENAI,
  },
  { id: 'o1', contextWindow: 200_000, input: 15, output: 60, pricesAsOf: '2024-12-17', source: OPENAI },
  { id: 'o3', contextWindow: 200_000, input: 2, output: 8, pricesAsOf: '2025-06-10', source: OPENAI },
  {
    id: 'o3-mini',
    contextWindow: 200_000,
    input: 1.1,
    output: 4.4,
    pricesAsOf: '2025-01-31',
    source: OPENAI,
  },
  {
    id: 'o4-mini',
    contextWindow: 200_000,
    input: 1.1,
    output: 4.4,
    pricesAsOf: '2025-04-16',
    source: OPENAI,
  },
  {
    id: 'gpt-4-turbo',
    contextWindow: 128_000,
    input: 10,
    output: 30,
    pricesAsOf: '2024-04-09',
    source: OPENAI,
  },
  { id: 'gpt-4', contextWindow: 8_192, input: 30, output: 60, pricesAsOf: '2023-06-13', source: OPENAI },
  {
    id: 'gpt-3.5-turbo',
    contextWindow: 16_385,
    input: 0.5,
    output: 1.5,
    pricesAsOf: '2024-01-25',
    source: OPENAI,
  },
  {
    id: 'text-embedding-3-small',
    contextWindow: 8_191,
    input: 0.02,
    output: null,
    pricesAsOf: '2024-01-25',
    source: OPENAI,
  },
  {
    id: 'text-embedding-3-large',
    contextWindow: 8_191,
    input: 0.13,
    output: null,
    pricesAsOf: '2024-01-25',
    source: OPENAI,
  },
  {
    id: 'text-embedding-ada-002',
    contextWindow: 8_191,
    input: 0.1,
    output: null,
    pricesAsOf: '2022-12-15',
    source: OPENAI,
  },
  // Anthropic (counts are estimates: see estimates.ts)
  {
    id: 'claude-opus-4-1',
    contextWindow: 200_000,
    input: 15,
    output: 75,
    pricesAsOf: '2025-08-05',
    source: ANTHROPIC,
  },
  {
    id: 'claude-opus-4',
    contextWindow: 200_000,
    input: 15,
    output: 75,
    pricesAsOf: '2025-05-22',
    source: ANTHROPIC,
  },
  {
    id: 'claude-sonnet-4-5',
    contextWindow: 200_000,
    input: 3,
    output: 15,
    pricesAsOf: '2025-09-29',
    source: ANTHROPIC,
  },
  {
    id: 'claude-sonnet-4',
    contextWindow: 200_000,
    input: 3,
    output: 15,
    pricesAsOf: '2025-05-22',
    source: ANTHROPIC,
  },
  {
    id: 'claude-haiku-4-5',
    contextWindow: 200_000,
    input: 1,
    output: 5,
    pricesAsOf: '2025-10-15',
    source: ANTHROPIC,
  },
  {
    id: 'claude-3-7-sonnet',
    contextWindow: 200_000,
    input: 3,
    output: 15,
    pricesAsOf: '2025-02-24',
    source: ANTHROPIC,
  },
  {
    id: 'claude-3-5-haiku',
    contextWindow: 200_000,
    input: 0.8,
    output: 4,
    pricesAsOf: '2024-11-04',
    source: ANTHROPIC,
  },
  {
    id: 'claude-3-haiku',
    contextWindow: 200_000,
    input: 0.25,
    output: 1.25,
    pricesAsOf: '2024-03-13',
    source: ANTHROPIC,
  },
  // Google (counts are estimates)
  {
    id: 'gemini-2.5-pro',
    contextWindow: 1_048_576,
    input: 1.25,
    output: 10,
    pricesAsOf: '2025-06-17',
    source: GOOGLE,
  },
  {
    id: 'gemini-2.5-flash',
    contextWindow: 1_048_576,
    input: 0.3,
    output: 2.5,
    pricesAsOf: '2025-06-17',
    source: GOOGLE,
  },
  {
    id: 'gemini-2.5-flash-lite',
    contextWindow: 1_048_576,
    input: 0.1,
    output: 0.4,
    pricesAsOf: '2025-07-22',
    source: GOOGLE,
  },
  {
    id: 'gemini-2.0-flash',
    contextWindow: 1_048_576,
    input: 0.1,
    output: 0.4,
    pricesAsOf: '2025-02-05',
    source: GOOGLE,
  },
  {
    id: 'gemini-2.0-flash-lite',
    contextWindow: 1_048_576,
    input: 0.075,
    output: 0.3,
    pricesAsOf: '2025-02-25',
    source: GOOGLE,
  },
  {
    id: 'gemini-1.5-pro',
    contextWindow: 2_097_152,
    input: 1.25,
    output: 5,
    pricesAsOf: '2024-10-01',
    source: GOOGLE,
  },
  {
    id: 'gemini-1.5-flash',
    contextWindow: 1_048_576,
    input: 0.075,
    output: 0.3,
    pricesAsOf: '2024-08-12',
    source: GOOGLE,
  },
  // Meta Llama 3 (open weights: context only)
  {
    id: 'llama-3-8b',
    contextWindow: 8_192,
    input: null,
    output: null,
    pricesAsOf: '2024-04-18',
    source: META,
  },
  {
    id: 'llama-3-70b',
    contextWindow: 8_192,
    input: null,
    output: null,
    pricesAsOf: '2024-04-18',
    source: META,
  },
  {
    id: 'llama-3.1-8b',
    contextWindow: 131_072,
    input: null,
    output: null,
    pricesAsOf: '2024-07-23',
    source: META,
  },
  {
    id: 'llama-3.1-70b',
    contextWindow: 131_072,
    input: null,
    output: null,
    pricesAsOf: '2024-07-23',
    source: META,
  },
  {
    id: 'llama-3.1-405b',
    contextWindow: 131_072,
    input: null,
    output: null,
    pricesAsOf: '2024-07-23',
    source: META,
  },
  {
    id: 'llama-3.2-1b',
    contextWindow: 131_072,
    input: null,
    output: null,
    pricesAsOf: '2024-09-25',
    source: META,
  },
  {
    id: 'llama-3.2-3b',
    contextWindow: 131_072,
    input: null,
    output: null,
    pricesAsOf: '2024-09-25',
    source: META,
  },
  {
    id: 'llama-3.3-70b',
    contextWindow: 131_072,
    input: null,
    output: null,
    pricesAsOf: '2024-12-06',
    source: META,
  },
  // Mistral
  {
    id: 'mistral-7b-v0.1',
    contextWindow: 8_192,
    input: null,
    output: null,
    pricesAsOf: '2023-09-27',
    source: MISTRAL_OPEN,
  },
  {
    id: 'mistral-7b-v0.2',
    contextWindow: 32_768,
    input: null,
    output: null,
    pricesAsOf: '2024-03-23',
    source: MISTRAL_OPEN,
  },
  {
    id: 'mixtral-8x7b',
    contextWindow: 32_768,
    input: null,
    output: null,
    pricesAsOf: '2023-12-11',
    source: MISTRAL_OPEN,
  },
  {
    id: 'open-mistral-7b',
    contextWindow: 32_768,
    input: 0.25,
    output: 0.25,
    pricesAsOf: '2024-05-22',
    source: MISTRAL,
  },
  {
    id: 'open-mixtral-8x7b',
    contextWindow: 32_768,
    input: 0.7,
    output: 0.7,
    pricesAsOf: '2024-05-22',
    source: MISTRAL,
  },
  {
    id: 'open-mixtral-8x22b',
    contextWindow: 65_536,
    input: 2,
    output: 6,
    pricesAsOf: '2024-05-22',
    source: MISTRAL,
  },
  {
    id: 'open-mistral-nemo',
    contextWindow: 131_072,
    input: 0.15,
    output: 0.15,
    pricesAsOf: '2024-07-18',
    source: MISTRAL,
  },
  {
    id: 'mistral-large-2411',
    contextWindow: 131_072,
    input: 2,
    output: 6,
    pricesAsOf: '2024-11-18',
    source: MISTRAL,
  },
  {
    id: 'mistral-small-2503',
    contextWindow: 131_072,
    input: 0.1,
    output: 0.3,
    pricesAsOf: '2025-03-17',
    source: MISTRAL,
  },
  {
    id: 'codestral-2501',
    contextWindow: 262_144,
    input: 0.3,
    output: 0.9,
    pricesAsOf: '2025-01-13',
    source: MISTRAL,
  },
];

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const ID = /^[a-z0-9][a-z0-9.-]*$/;
const price = (value: unknown) =>
  value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1000);

/** Every problem of the table, one line each (empty when it is sound). */
export function priceProblems(entries: readonly PriceEntry[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const where = `price table entry ${index} (${String(entry?.id)})`;
    if (typeof entry?.id !== 'string' || !ID.test(entry.id))
      problems.push(`${where}: id must be a lower-case model id`);
    else if (seen.has(entry.id)) problems.push(`${where}: duplicate id`);
    else seen.add(entry.id);
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
      problems.push(`${where}: source must start with an https:// address`);
  });
  return problems;
}

export function validatePrices(entries: readonly PriceEntry[]): void {
  const problems = priceProblems(entries);
  if (problems.length > 0) throw new Error(`token-counter price table is malformed: ${problems.join('; ')}`);
}

validatePrices(PRICES);

const byId = new Map(PRICES.map((entry) => [entry.id, entry]));
/** What may follow an id in a variant's name: a date or a tag. */
const VARIANT = /^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest|instruct|chat)(-.*)?$/;

/** The entry of a model (lower-cased name), of the id it is a dated/tagged variant of, or undefined. */
export function priceFor(model: string): PriceEntry | undefined {
  const exact = byId.get(model);
  if (exact) return exact;
  let best: PriceEntry | undefined;
  for (const entry of PRICES) {
    if (model.startsWith(entry.id) && VARIANT.test(model.slice(entry.id.length))) {
      if (!best || entry.id.length > best.id.length) best = entry;
    }
  }
  return best;
}
