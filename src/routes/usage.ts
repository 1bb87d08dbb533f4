import type { FastifyInstance } from 'fastify';
import { routeSchema } from '../catalogue/route-doc.js';
import { ROUTE_DOCS } from '../catalogue/route-docs.js';
import type { QuotaPer } from '../config/quota.js';
import { HubError } from '../errors.js';
import { callerOf } from '../http/caller.js';
import { quotaName, USAGE_READS_LIMIT } from '../limits/limit-names.js';
import {
  limitField,
  type PolicyItem,
  policyField,
  quotaPolicy,
  ratePolicy,
  secondsOf,
} from '../limits/ratelimit-fields.js';
import { requestLimit, type StorePolicy } from '../limits/store.js';
import type { QuotaUsage, Usage } from '../limits/usage.js';

/** GET /api/usage is a read, not a run: its own limit per caller, 60 a minute (docs/api.md, "Usage"). */
export const USAGE_READS: StorePolicy = requestLimit(60);

/** The quotas of a usage read as IETF policy items, named as a run's answer names them. */
function quotaItems(toolId: string, per: QuotaPer, quota: QuotaUsage | undefined, now: number): PolicyItem[] {
  if (!quota) return [];
  const out: PolicyItem[] = [];
  for (const window of ['day', 'month'] as const) {
    for (const kind of ['runs', 'computeMs'] as const) {
      const limit = quota[window][kind].limit;
      const name = quotaName(toolId, { per, window, kind });
      if (limit !== null) out.push(quotaPolicy(name, window, kind, limit, now));
    }
  }
  return out;
}

const OWN_POLICY = policyField([ratePolicy(USAGE_READS_LIMIT, USAGE_READS.limit, 0, 60)]);

/**
 * `GET /api/usage` (docs/api.md, "Usage"): the caller's usage of every tool's limits. The
 * IETF RateLimit-Policy header names the read's own limit (`@usage`), every tool's rate
 * limit and every quota (per tool and per key); RateLimit the read's own counter. The
 * budgets and caps are in the body and on each run's answer, which keeps this header
 * within what proxies take however many tools there are.
 */
export default async function usageRoutes(app: FastifyInstance): Promise<void> {
  const doc = ROUTE_DOCS.usage;
  app.get(doc.url, { config: { toolSurface: true }, schema: routeSchema(doc) }, async (request, reply) => {
    const { client, tier } = callerOf(request);
    const read = await app.limits.countUsageRead(client, USAGE_READS);
    const own = limitField([{ name: USAGE_READS_LIMIT, r: read.remaining, t: secondsOf(read.resetMs) }]);
    if (!read.allowed) {
      throw new HubError('RATE_LIMITED', `at most ${USAGE_READS.limit} usage reads a minute; retry later`, {
        headers: { RateLimit: own, 'RateLimit-Policy': OWN_POLICY, 'Retry-After': read.retryAfterSec },
      });
    }
    const usage: Usage = await app.facade.usage(client, tier);
    const now = Date.now();
    const items = [
      ratePolicy(USAGE_READS_LIMIT, USAGE_READS.limit, 0, 60),
      ...Object.entries(usage.tools).flatMap(([toolId, t]) => [
        ratePolicy(toolId, t.rate.limit, t.rate.burst, t.rate.windowSec),
        ...quotaItems(toolId, 'tool', t.quota, now),
      ]),
      ...quotaItems('', 'key', usage.quota, now),
    ];
    return reply.header('RateLimit', own).header('RateLimit-Policy', policyField(items)).send(usage);
  });
}
