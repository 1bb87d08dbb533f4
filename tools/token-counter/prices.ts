/**
 * The context windows and list prices the token counter answers from: the table is
 * prices.json (`sources`, the vendor pages by key, and `entries`, one per model), this
 * module its typed loader, validation and lookup. Each entry carries its own date and
 * source: prices change, and the answer says which figures it used (`cost.pricesAsOf`,
 * `cost.source`). Prices are USD per million tokens (standard tier, no batch or cache
 * discount; where a vendor tiers by prompt length, the lowest tier). `null` means no
 * published list price (open-weight models, embeddings' output). The table is validated
 * when the module loads: a malformed entry fails the worker's first run and prices.test.ts
 * with a message naming the entry.
 *
 * An entry applies to its id and to dated or tagged variants of it: the id followed by
 * `-` and a date (2024-08-06, 20250514, 2407) or one of `latest`, `instruct`, `chat`.
 */
import table from './prices.json' with { type: 'json' };

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
  /** The vendor page the figures come from (in prices.json, a key of `sources` or the address). */
  source: string;
}

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const ID = /^[a-z0-9][a-z0-9.-]*$/;
const price = (value: unknown) =>
  value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1000);

/** Every problem of the entries, one line each (empty when they are sound). */
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
