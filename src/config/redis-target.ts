import { ConfigError } from './env.js';

export interface HostPort {
  host: string;
  port: number;
}

/** Where the shared limiter stores live: one Redis, a Redis Cluster, or Redis behind Sentinel. */
export type RedisTarget =
  | { kind: 'url'; url: string }
  | { kind: 'cluster'; nodes: HostPort[] }
  | { kind: 'sentinel'; sentinels: HostPort[]; name: string };

export interface RedisSettings {
  REDIS_URL?: string | undefined;
  REDIS_CLUSTER_NODES?: string | undefined;
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
}

/** The one topology the environment names (null: in-process stores); more than one is a boot error. */
export function redisTarget(env: RedisSettings): RedisTarget | null {
  const named = [
    env.REDIS_URL && 'REDIS_URL',
    env.REDIS_CLUSTER_NODES && 'REDIS_CLUSTER_NODES',
    env.REDIS_SENTINELS && 'REDIS_SENTINELS',
  ].filter(Boolean);
  if (named.length > 1)
    throw new ConfigError(
      `set one of REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS (got ${named.join(', ')})`,
    );
  if (env.REDIS_CLUSTER_NODES)
    return { kind: 'cluster', nodes: hostPorts('REDIS_CLUSTER_NODES', env.REDIS_CLUSTER_NODES) };
  if (env.REDIS_SENTINELS) {
    if (!env.REDIS_SENTINEL_NAME)
      throw new ConfigError('REDIS_SENTINELS needs REDIS_SENTINEL_NAME (the master group name)');
    return {
      kind: 'sentinel',
      sentinels: hostPorts('REDIS_SENTINELS', env.REDIS_SENTINELS),
      name: env.REDIS_SENTINEL_NAME,
    };
  }
  return env.REDIS_URL ? { kind: 'url', url: env.REDIS_URL } : null;
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
