import type { FastifyInstance } from 'fastify';
import { routeSchema } from '../catalogue/route-doc.js';
import { ROUTE_DOCS } from '../catalogue/route-docs.js';
import { NO_QUOTAS } from '../config/quota.js';
import { HubError } from '../errors.js';
import { callerOf } from '../http/caller.js';
import type { StorePolicy } from '../limits/store.js';
import type { QuotaUsage, Usage } from '../limits/usage.js';

/** GET /api/usage is a read, not a run: its own limit per caller, 60 a minute (docs/api.md, "Usage"). */
export const USAGE_READS: StorePolicy = {
  tier: '',
  limit: 60,
  burst: 0,
  windowMs: 60_000,
  budgetMs: 0,
  cap: 0,
  leaseMs: 0,
  reserveMs: 0,
  quotas: NO_QUOTAS,
};

/**
 * The run quotas as IETF policy items, `"<name>-day";q=<runs>;w=<seconds of the window>`: a
 * month's window is the length of the current month (its `resetAt` says when it ends).
 */
function quotaPolicies(name: string, quota: QuotaUsage | undefined): string[] {
  if (!quota) return [];
  const out: string[] = [];
  const { day, month } = quota;
  if (day.runs.limit !== null) out.push(`"${name}-day";q=${day.runs.limit};w=86400`);
  if (month.runs.limit !== null) {
    const end = Date.parse(month.resetAt);
    const start = Date.UTC(new Date(end - 1).getUTCFullYear(), new Date(end - 1).getUTCMonth(), 1);
    out.push(`"${name}-month";q=${month.runs.limit};w=${(end - start) / 1000}`);
  }
  return out;
}

/**
 * `GET /api/usage` (docs/api.md, "Usage"): the caller's usage of every tool's limits. The
 * IETF RateLimit-Policy header names the read's own policy, every tool's and every run quota
 * (per tool and per key), RateLimit the read's own counter.
 */
export default async function usageRoutes(app: FastifyInstance): Promise<void> {
  const doc = ROUTE_DOCS.usage;
  app.get(doc.url, { config: { toolSurface: true }, schema: routeSchema(doc) }, async (request, reply) => {
    const { client, tier } = callerOf(request);
    const read = await app.limits.countUsageRead(client, USAGE_READS);
    const own = `"usage";r=${read.remaining};t=${Math.ceil(read.resetMs / 1000)}`;
    if (!read.allowed) {
      throw new HubError('RATE_LIMITED', `at most ${USAGE_READS.limit} usage reads a minute; retry later`, {
        headers: { RateLimit: own, 'Retry-After': read.retryAfterSec },
      });
    }
    const usage: Usage = await app.hub.usage(client, tier);
    const policies = Object.entries(usage.tools).flatMap(([toolId, t]) => [
      `"${toolId}";q=${t.rate.limit};w=${t.rate.windowSec}`,
      ...quotaPolicies(toolId, t.quota),
    ]);
    policies.push(...quotaPolicies('key', usage.quota));
    return reply
      .header('RateLimit', own)
      .header('RateLimit-Policy', [`"usage";q=${USAGE_READS.limit};w=60`, ...policies].join(', '))
      .send(usage);
  });
}
