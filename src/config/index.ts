import { checkHost, parseTrustProxy } from './addresses.js';
import { type EnvConfig, loadEnv } from './env.js';
import { type PolicyFile, readPolicyFile } from './policy.js';
import { type RedisTarget, redisTarget } from './redis-target.js';

export interface HubConfig {
  env: EnvConfig;
  policyFile: PolicyFile;
  /** RUNTIME_ENABLED and the policy file's `runtimeEnabled` must both allow runs. */
  runsEnabled: boolean;
  trustProxy: boolean | number | string[];
  /** The Redis of the limiter's store (one, a Cluster or Sentinel); null: the in-process store. */
  redis: RedisTarget | null;
  /** The result cache's own Redis (CACHE_REDIS_*); null: none of its own (docs/operations.md, "Result cache"). */
  cacheRedis: RedisTarget | null;
  extraToolDirs: string[];
}

/** Everything configurable, read and checked once at boot; throws ConfigError on a bad value. */
export function loadConfig(vars: Record<string, string | undefined>): HubConfig {
  const env = loadEnv(vars);
  checkHost(env.HOST);
  const policyFile = env.POLICY_FILE ? readPolicyFile(env.POLICY_FILE) : {};
  return {
    env,
    policyFile,
    runsEnabled: env.RUNTIME_ENABLED && policyFile.runtimeEnabled !== false,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    redis: redisTarget(env),
    cacheRedis: redisTarget(env, 'CACHE_'),
    extraToolDirs: splitList(env.EXTRA_TOOL_DIRS),
  };
}

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
