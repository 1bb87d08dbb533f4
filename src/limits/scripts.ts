import { readFileSync } from 'node:fs';

/**
 * The limiter's Lua scripts, one file each in src/limits/lua/ with a header naming its KEYS
 * and ARGV (each runs atomically in Redis; src/limits/redis-client.ts defines them as
 * commands). `-- @include <name>` inlines src/limits/lua/includes/<name>.lua, the way bullmq
 * shares code between its commands (both read the clock so). The build copies the folder beside
 * the compiled loader.
 */
const dir = new URL('./lua/', import.meta.url);

/** One of the scripts' shared parts (src/limits/lua/includes/), as the scripts inline it. */
export function luaInclude(name: string): string {
  return readFileSync(new URL(`includes/${name}.lua`, dir), 'utf8');
}

export function loadScript(name: string): string {
  const text = readFileSync(new URL(`${name}.lua`, dir), 'utf8');
  return text.replace(/^-- @include ([\w-]+)$/gm, (_line, include: string) => luaInclude(include));
}

export const DECIDE_LUA = loadScript('decide');
export const RELEASE_LUA = loadScript('release');
export const USAGE_LUA = loadScript('usage');
export const SETTLE_LUA = loadScript('settle');
export const RENEW_LUA = loadScript('renew');
