import type { FromSchema } from 'json-schema-to-ts';
import type { State } from './decide.js';
import type { UsageReply } from './store.js';

export type { UsageReply };

/** The in-process store's read: the steps of src/limits/lua/usage.lua. */
export function readUsage(s: State | undefined, tier: string, now: number): UsageReply {
  const h = s?.counters;
  const open = (count: string, ends: string): [number, number] => {
    const e = h?.get(ends) ?? 0;
    return e <= now ? [0, 0] : [h?.get(count) ?? 0, e - now];
  };
  let leases = 0;
  if (s && s.leasesExpireAt > now) for (const deadline of s.leases.values()) if (deadline > now) leases++;
  const [dr, dayMs] = open('dr', 'de');
  const [mr, monthMs] = open('mr', 'me');
  return [
    ...open(`c${tier}`, `e${tier}`),
    ...open(`b${tier}`, `f${tier}`),
    ...open('u', 'v'),
    leases,
    dr,
    dayMs > 0 ? (h?.get('dm') ?? 0) : 0,
    dayMs,
    mr,
    monthMs > 0 ? (h?.get('mm') ?? 0) : 0,
    monthMs,
  ] as UsageReply;
}

const count = { type: 'integer', minimum: 0 } as const;

const quotaCount = {
  type: 'object',
  required: ['used', 'limit', 'remaining'],
  properties: {
    used: count,
    limit: { type: ['integer', 'null'], minimum: 0, description: 'null: no quota on this count' },
    remaining: { type: ['integer', 'null'], minimum: 0 },
  },
  additionalProperties: false,
} as const;
const quotaWindow = {
  type: 'object',
  required: ['runs', 'computeMs', 'resetSec', 'resetAt'],
  properties: {
    runs: quotaCount,
    computeMs: quotaCount,
    resetSec: { ...count, description: "Seconds until the window's end" },
    resetAt: {
      type: 'string',
      format: 'date-time',
      description: 'The next 00:00 UTC, or the first of the next month',
    },
  },
  additionalProperties: false,
} as const;
/** Quotas as they stand: runs and worker ms in the UTC day and month (docs/api.md, "Quotas"). */
export const QUOTA_USAGE_SCHEMA = {
  type: 'object',
  required: ['day', 'month'],
  properties: { day: quotaWindow, month: quotaWindow },
  additionalProperties: false,
} as const;

/** One tool's limits as they stand for the caller (GET /api/usage), declared once. */
const TOOL_USAGE_SCHEMA = {
  type: 'object',
  required: ['rate', 'budget', 'concurrency'],
  properties: {
    rate: {
      type: 'object',
      description: 'The rate limit: attempts per window, plus the burst once the limit is spent',
      required: ['limit', 'burst', 'windowSec', 'used', 'remaining', 'resetSec'],
      properties: {
        limit: count,
        burst: count,
        windowSec: count,
        used: {
          ...count,
          description: 'Attempts counted in the open window (refused ones too); 0 with none open',
        },
        remaining: { ...count, description: 'Attempts still allowed in the window, the burst included' },
        resetSec: { ...count, description: 'Seconds until the window ends; 0 with none open' },
      },
      additionalProperties: false,
    },
    budget: {
      type: 'object',
      description: 'The compute budget: worker milliseconds per window',
      required: ['limitMs', 'windowSec', 'usedMs', 'remainingMs', 'resetSec'],
      properties: {
        limitMs: count,
        windowSec: count,
        usedMs: count,
        remainingMs: count,
        resetSec: { ...count, description: 'Seconds until the window ends; 0 with none open' },
      },
      additionalProperties: false,
    },
    concurrency: {
      type: 'object',
      description: "The client's cap on runs of the tool at once, across every instance",
      required: ['limit', 'inFlight'],
      properties: { limit: count, inFlight: count },
      additionalProperties: false,
    },
    quota: { ...QUOTA_USAGE_SCHEMA, description: "The tool's quotas for this client (the policy file's)" },
  },
  additionalProperties: false,
} as const;

/** The answer of GET /api/usage: the schema fastify serialises with and OpenAPI describes. */
export const USAGE_SCHEMA = {
  type: 'object',
  required: ['ok', 'client', 'tier', 'store', 'tools', 'total'],
  properties: {
    ok: { const: true },
    client: {
      type: 'string',
      description: 'Who the limits count: `key:<id>` for an API key, else the address',
    },
    tier: { type: ['string', 'null'], description: "The key's tier, or null" },
    store: {
      enum: ['redis', 'memory'],
      description: 'Where the counters were read: redis (every instance) or this instance',
    },
    tools: { type: 'object', additionalProperties: TOOL_USAGE_SCHEMA, description: 'By toolId' },
    quota: {
      ...QUOTA_USAGE_SCHEMA,
      description: "The key's quotas over every tool (its tier's, in the keys file)",
    },
    total: {
      type: 'object',
      description:
        'Summed over the tools: `runs` the attempts counted in their rate windows (the name kept for clients), worker ms, runs in flight',
      required: ['runs', 'computeMs', 'inFlight'],
      properties: { runs: count, computeMs: count, inFlight: count },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

export type ToolUsage = FromSchema<typeof TOOL_USAGE_SCHEMA>;
export type QuotaUsage = FromSchema<typeof QUOTA_USAGE_SCHEMA>;
export type Usage = FromSchema<typeof USAGE_SCHEMA>;
