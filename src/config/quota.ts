import type { FromSchema } from 'json-schema-to-ts';

const amount = { type: 'integer', minimum: 0, maximum: 1_000_000_000_000 } as const;

/**
 * A quota (docs/operations.md, "Quotas"): runs and worker milliseconds per UTC calendar day
 * and month. Declared per tier in the keys file (over every tool, per key) and per tool in the
 * policy file (per client); a field left out sets no quota, 0 allows nothing.
 */
export const QUOTA_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    runsPerDay: amount,
    computeMsPerDay: amount,
    runsPerMonth: amount,
    computeMsPerMonth: amount,
  },
} as const;
export type Quota = FromSchema<typeof QUOTA_SCHEMA>;

export type QuotaPer = 'tool' | 'key';
export type QuotaWindow = 'day' | 'month';
export type QuotaKind = 'runs' | 'computeMs';

/** One of the 8 quotas a run can meet, in the store's order (StorePolicy.quotas). */
export interface QuotaEntry {
  per: QuotaPer;
  window: QuotaWindow;
  kind: QuotaKind;
  field: keyof Quota;
}

const FIELDS: readonly (keyof Quota)[] = [
  'runsPerDay',
  'computeMsPerDay',
  'runsPerMonth',
  'computeMsPerMonth',
];

export const QUOTA_ENTRIES: readonly QuotaEntry[] = (['tool', 'key'] as const).flatMap((per) =>
  FIELDS.map((field, j) => ({
    per,
    window: j < 2 ? ('day' as const) : ('month' as const),
    kind: j % 2 === 0 ? ('runs' as const) : ('computeMs' as const),
    field,
  })),
);

/** The store's 8 numbers (-1: none) from the tool's quota and the key's. */
export function quotaNumbers(tool: Quota | undefined, key: Quota | undefined): number[] {
  return QUOTA_ENTRIES.map((s) => (s.per === 'tool' ? tool : key)?.[s.field] ?? -1);
}

/** The quotas a run's worker time counts toward: bit 1 the tool's, bit 2 the key's. */
export function quotaBits(numbers: readonly number[]): number {
  let bits = 0;
  for (const [j, n] of numbers.entries()) if (n >= 0) bits |= j < 4 ? 1 : 2;
  return bits;
}

/** A quota scaled by a tier's multiplier (as its rate and budget are), at least 1 where set above 0. */
export function scaleQuota(quota: Quota | undefined, multiplier: number): Quota | undefined {
  if (!quota || multiplier === 1) return quota;
  const out: Quota = {};
  for (const f of FIELDS) {
    const n = quota[f];
    if (n !== undefined) out[f] = n === 0 ? 0 : Math.max(1, Math.round(n * multiplier));
  }
  return out;
}

/** No quota at all: the store's numbers for the MCP message limit and the usage reads. */
export const NO_QUOTAS: readonly number[] = QUOTA_ENTRIES.map(() => -1);
