import { ConfigError } from './env.js';

export interface HostPort {
  host: string;
  port: number;
}

/** Where a Redis the hub uses lives: one Redis, a Redis Cluster, or Redis behind Sentinel. */
export type RedisTarget =
  | { kind: 'url'; url: string }
  | { kind: 'cluster'; nodes: HostPort[] }
  | { kind: 'sentinel'; sentinels: HostPort[]; name: string };

export interface RedisSettings {
  REDIS_URL?: string | undefined;
  REDIS_CLUSTER_NODES?: string | undefined;
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  CACHE_REDIS_URL?: string | undefined;
  CACHE_REDIS_CLUSTER_NODES?: string | undefined;
  CACHE_REDIS_SENTINELS?: string | undefined;
  CACHE_REDIS_SENTINEL_NAME?: string | undefined;
}

/**
 * The one topology the environment names (null: none); more than one is a boot error. `''`
 * reads the limiter's Redis (REDIS_*), `'CACHE_'` the result cache's own (CACHE_REDIS_*,
 * docs/operations.md, "Result cache"): the same three forms under another prefix.
 */
export function redisTarget(env: RedisSettings, prefix: '' | 'CACHE_' = ''): RedisTarget | null {
  const url = `${prefix}REDIS_URL` as const;
  const cluster = `${prefix}REDIS_CLUSTER_NODES` as const;
  const sentinels = `${prefix}REDIS_SENTINELS` as const;
  const name = `${prefix}REDIS_SENTINEL_NAME` as const;
  const named = [url, cluster, sentinels].filter((v) => env[v]);
  if (named.length > 1)
    throw new ConfigError(`set one of ${url}, ${cluster}, ${sentinels} (got ${named.join(', ')})`);
  const clusterNodes = env[cluster];
  if (clusterNodes) return { kind: 'cluster', nodes: hostPorts(cluster, clusterNodes) };
  const sentinelList = env[sentinels];
  if (sentinelList) {
    const group = env[name];
    if (!group) throw new ConfigError(`${sentinels} needs ${name} (the master group name)`);
    return { kind: 'sentinel', sentinels: hostPorts(sentinels, sentinelList), name: group };
  }
  const single = env[url];
  return single ? { kind: 'url', url: single } : null;
}

function hostPorts(variable: string, value: string): HostPort[] {
  return value.split(',').map((entry) => {
    const m = /^\s*(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})\s*$/.exec(entry);
    const port = Number(m?.[2]);
    if (!m || port < 1 || port > 65535) {
      throw new ConfigError(
        `${variable}=${JSON.stringify(value)}: ${JSON.stringify(entry.trim())} is not host:port`,
      );
    }
    return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
  });
}
