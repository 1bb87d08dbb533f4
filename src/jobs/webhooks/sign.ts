import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signatures (docs/api.md, "Webhooks"): `v1,` and the base64 HMAC-SHA256
 * of `<webhook-id>.<webhook-timestamp>.<body>` under the secret's bytes (the base64 after
 * `whsec_`). One signature per secret, space-separated: two while a secret rotates, and a
 * receiver accepts the delivery when any one matches. Written here (a dozen lines) rather
 * than taken from `standardwebhooks`, whose signer wants one secret; that library verifies
 * these in the tests.
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** The three headers of a delivery: its id (the same on every attempt), the attempt's time, its signatures. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
  };
}
