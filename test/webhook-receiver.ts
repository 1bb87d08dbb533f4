import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery as the receiver saw it, verified with the Standard Webhooks library. */
export interface Received {
  id: string;
  body: string;
  headers: Record<string, string>;
  /** Which of the receiver's secrets verified it (the library's `verify`), by index; [] when none. */
  verifiedBy: number[];
  status: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  close: () => Promise<void>;
}

/** What the receiver answers to the `n`th delivery (from 1) of a webhook-id. */
export type Plan = (n: number, id: string) => { status: number; headers?: Record<string, string> };

/**
 * A webhook receiver on loopback, as a user of the hub writes one: every delivery checked with
 * `standardwebhooks` (signature over the raw body, timestamp tolerance) against each secret.
 */
export async function startReceiver(
  secrets: string[],
  plan: Plan = () => ({ status: 204 }),
): Promise<Receiver> {
  const received: Received[] = [];
  const seen = new Map<string, number>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
      );
      const verifiedBy = secrets.flatMap((secret, i) => {
        try {
          new Webhook(secret).verify(body, headers);
          return [i];
        } catch {
          return [];
        }
      });
      const id = headers['webhook-id'] ?? '';
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      const answer = plan(n, id);
      received.push({ id, body, headers, verifiedBy, status: answer.status });
      res.writeHead(answer.status, answer.headers ?? {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fresh Standard Webhooks secret. */
export function newSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
}
