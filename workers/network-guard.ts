import dgram from 'node:dgram';
import dns from 'node:dns';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';
import { NETWORK_DISABLED_MESSAGE } from '#worker-protocol';

/**
 * `networkEnabled: false`, enforced inside the worker: every way a tool could open a
 * connection or resolve a name throws. Worker threads have their own copies of these
 * modules' JS objects, so the API thread's own networking is untouched.
 */
export class NetworkDisabledError extends Error {
  override name = 'NetworkDisabledError';
  constructor() {
    super(NETWORK_DISABLED_MESSAGE);
  }
}

const deny = (): never => {
  throw new NetworkDisabledError();
};
const denyAsync = async (): Promise<never> => deny();

function patch(target: object, names: string[], replacement: (...args: unknown[]) => unknown): void {
  for (const name of names) {
    Object.defineProperty(target, name, { value: replacement, writable: false, configurable: false });
  }
}

export function installNetworkGuard(): void {
  patch(net, ['connect', 'createConnection', 'createServer'], deny);
  patch(net.Socket.prototype, ['connect'], deny);
  patch(tls, ['connect'], deny);
  patch(http, ['request', 'get', 'createServer'], deny);
  patch(https, ['request', 'get', 'createServer'], deny);
  patch(http2, ['connect', 'createServer', 'createSecureServer'], deny);
  patch(dgram, ['createSocket'], deny);
  patch(dns, ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny'], deny);
  patch(dns.promises, ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny'], denyAsync);
  patch(globalThis, ['fetch'], denyAsync);
  if ('WebSocket' in globalThis) patch(globalThis, ['WebSocket'], deny);
  // Named ESM imports (`import { request } from 'node:http'`) see the patched functions too.
  syncBuiltinESMExports();
}
