import type { FastifyRequest } from 'fastify';
import type { KeyOwner } from '../auth/api-keys.js';

/**
 * The identity and tier a run is counted under: the key's (`request.keyOwner`, set by the
 * API-keys plugin, src/plugins/api-keys.ts), or the client address.
 */
export function callerOf(request: FastifyRequest): { client: string; tier?: KeyOwner['tier'] } {
  const owner = request.keyOwner;
  if (!owner) return { client: request.ip };
  return { client: `key:${owner.id}`, ...(owner.tier ? { tier: owner.tier } : {}) };
}
