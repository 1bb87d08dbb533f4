import { checkHost, parseTrustProxy } from './addresses.js';
import { type EnvConfig, loadEnv } from './env.js';
import { type PolicyFile, readPolicyFile, type ToolPolicy } from './policy.js';
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
  /** TOOL_PACKAGES: npm packages of tools (docs/tool-packages.md). */
  toolPackages: string[];
  /** TOOL_PACKAGES_DIR, or undefined: the hub's own root. */
  toolPackagesDir: string | undefined;
  /** TOOL_NETWORK: tools that may use the network where their manifest asks (docs/tool-packages.md). */
  toolNetwork: string[];
  /** Public base address of the hub (PUBLIC_BASE_URL, else http://localhost:PORT), no trailing slash. */
  baseUrl: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The parsed configuration: each plugin reads its own settings from it (docs/architecture.md, "Plugins"). */
    hubConfig: HubConfig;
    /** Every tool's policy after operator and tier overrides, resolved at boot by buildApp. */
    policies: Map<string, ToolPolicy>;
  }
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
    toolPackages: splitList(env.TOOL_PACKAGES),
    toolPackagesDir: env.TOOL_PACKAGES_DIR || undefined,
    toolNetwork: splitList(env.TOOL_NETWORK),
    baseUrl: env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`,
  };
}

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
