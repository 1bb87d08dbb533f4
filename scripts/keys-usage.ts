// `npm run keys -- usage [id]` (docs/operations.md, "Usage per key"): what each key of the
// file has used of every tool's limits now, read from the hub's Redis with the hub's own
// configuration (REDIS_URL or REDIS_CLUSTER_NODES or REDIS_SENTINELS, REDIS_PREFIX,
// POLICY_FILE, EXTRA_TOOL_DIRS) and the same read as GET /api/usage.
import type { ApiKeysFile } from '../src/auth/api-keys.js';
import { TierPolicies } from '../src/auth/tiers.js';
import { loadConfig } from '../src/config/index.js';
import { resolvePolicies } from '../src/config/policy.js';
import { Limits } from '../src/limits/limits.js';
import { LimiterRedis } from '../src/limits/redis-client.js';
import type { QuotaUsage } from '../src/limits/usage.js';
import { usageReport } from '../src/limits/usage-report.js';
import { scanTools } from '../src/registry.js';

/**
 * `today 3/100 runs, 120 worker ms (resets 2026-11-27T00:00:00.000Z); this month …` (a count
 * without a quota: no `/limit`). A quota counts admitted runs, where a rate limit counts
 * attempts (docs/architecture.md, "Glossary"): the two words never share a line's meaning.
 */
function quotaLine(q: QuotaUsage): string {
  const of = (c: { used: number; limit: number | null }, unit: string) =>
    `${c.used}${c.limit === null ? '' : `/${c.limit}`} ${unit}`;
  const w = (name: string, x: QuotaUsage['day']) =>
    `${name} ${of(x.runs, 'runs')}, ${of(x.computeMs, 'worker ms')} (resets ${x.resetAt})`;
  return `${w('today', q.day)}; ${w('this month', q.month)}`;
}

/** Prints one block per key: the tools it used, then its totals. Returns the exit status. */
export async function printUsage(data: ApiKeysFile, only: string | undefined): Promise<number> {
  const keys = data.keys.filter((k) => only === undefined || k.id === only);
  if (only !== undefined && keys.length === 0) {
    process.stderr.write(`keys: no key id '${only}'\n`);
    return 2;
  }
  const config = loadConfig(process.env);
  if (!config.redis) {
    process.stderr.write(
      "keys: usage reads the hub's Redis: set REDIS_URL (or REDIS_CLUSTER_NODES, REDIS_SENTINELS) as the hub has it; without Redis each instance counts in its own memory (GET /api/usage there)\n",
    );
    return 2;
  }
  const tools = await scanTools({
    packages: config.toolPackages,
    packagesDir: config.toolPackagesDir,
    extraDirs: config.extraToolDirs,
  });
  const policies = resolvePolicies(
    [...tools.values()].map((t) => t.def),
    config.env,
    config.policyFile,
  );
  const redis = new LimiterRedis(config.redis, 2000);
  try {
    await new Promise((resolve, reject) => {
      redis.client.once('ready', resolve);
      setTimeout(() => reject(new Error('Redis did not answer within 5 s')), 5000).unref();
    });
    const limits = new Limits(redis, config.env.REDIS_PREFIX, 0, () => 0);
    const byTier = new TierPolicies(policies);
    for (const key of keys) {
      const declared = key.tier ? data.tiers![key.tier]! : undefined;
      const tier = declared
        ? {
            name: key.tier!,
            multiplier: declared.multiplier,
            ...(declared.quota ? { quota: declared.quota } : {}),
          }
        : undefined;
      const ids = [...policies.keys()].sort();
      const usage = await usageReport(
        limits,
        `key:${key.id}`,
        tier,
        ids.map((id) => [id, byTier.get(id, tier)] as const),
      );
      const { runs, computeMs, inFlight } = usage.total;
      // `total.runs` sums the rate counters: attempts, refused and cached ones included.
      process.stdout.write(
        `${key.id}${tier ? ` (tier ${tier.name})` : ''}: ${runs} attempts, ${computeMs} worker ms, ${inFlight} runs in flight (open windows)\n`,
      );
      if (usage.quota) process.stdout.write(`  quota of the key: ${quotaLine(usage.quota)}\n`);
      for (const [toolId, t] of Object.entries(usage.tools)) {
        if (t.rate.used === 0 && t.budget.usedMs === 0 && t.concurrency.inFlight === 0 && !t.quota) continue;
        process.stdout.write(
          `  ${toolId}: rate limit ${t.rate.used}/${t.rate.limit}+${t.rate.burst} attempts per ${t.rate.windowSec} s (resets in ${t.rate.resetSec} s), budget ${t.budget.usedMs}/${t.budget.limitMs} worker ms, in flight ${t.concurrency.inFlight}/${t.concurrency.limit} runs${t.quota ? `; quota: ${quotaLine(t.quota)}` : ''}\n`,
        );
      }
    }
    return 0;
  } catch (err) {
    process.stderr.write(`keys: ${(err as Error).message}\n`);
    return 2;
  } finally {
    await redis.close();
  }
}
