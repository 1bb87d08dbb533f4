import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { lazyValidator } from '../ajv.js';
import { ConfigError } from '../config/env.js';
import { QUOTA_SCHEMA } from '../config/quota.js';
import type { Tier } from './tiers.js';

/** The API_KEYS_FILE, declared once as plain JSON Schema: its type is derived from it (json-schema-to-ts). */
export const API_KEYS_SCHEMA = {
  type: 'object',
  required: ['keys'],
  properties: {
    tiers: {
      type: 'object',
      patternProperties: {
        '^[a-z0-9][a-z0-9_-]{0,31}$': {
          type: 'object',
          required: ['multiplier'],
          properties: {
            multiplier: { type: 'number', exclusiveMinimum: 0, maximum: 10000 },
            quota: QUOTA_SCHEMA,
          },
          additionalProperties: false,
        },
      },
    },
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'sha256'],
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
          sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          tier: { type: 'string' },
          webhookSecrets: {
            description:
              'The secrets its webhooks are signed with (Standard Webhooks, `whsec_` and base64); two while rotating',
            type: 'array',
            minItems: 1,
            maxItems: 2,
            items: { type: 'string', pattern: '^whsec_[A-Za-z0-9+/]{32,}={0,2}$' },
          },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;
export type ApiKeysFile = FromSchema<typeof API_KEYS_SCHEMA>;

/** Who a key belongs to: its id (logs, limits) and its tier. */
export interface KeyOwner {
  id: string;
  tier?: Tier;
}

interface StoredKey {
  owner: KeyOwner;
  digest: Buffer;
  webhookSecrets: string[];
}

const fileValidator = lazyValidator<ApiKeysFile>(API_KEYS_SCHEMA, { allErrors: true });

/** Reads and checks the keys file; every problem names the file and what is wrong. */
export function readApiKeysFile(path: string): ApiKeysFile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`API_KEYS_FILE ${path}: ${(err as Error).message}`);
  }
  const validate = fileValidator();
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((e) => {
      const extra = e.params.additionalProperty ? ` '${e.params.additionalProperty}'` : '';
      return `${e.instancePath || '/'} ${e.message}${extra}`;
    });
    throw new ConfigError(`API_KEYS_FILE ${path}: ${problems.join('; ')}`);
  }
  const ids = new Set<string>();
  for (const key of data.keys) {
    if (ids.has(key.id)) throw new ConfigError(`API_KEYS_FILE ${path}: key id '${key.id}' is listed twice`);
    ids.add(key.id);
    if (key.tier !== undefined && !data.tiers?.[key.tier]) {
      throw new ConfigError(`API_KEYS_FILE ${path}: key '${key.id}' names an unknown tier '${key.tier}'`);
    }
  }
  return data;
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The keys a hub accepts, held only as SHA-256 digests. A presented key is hashed and
 * compared with every stored digest in constant time (crypto.timingSafeEqual, and no early
 * exit), so the time taken says nothing about which digest came close.
 */
export class ApiKeys {
  private keys: StoredKey[] = [];

  constructor(readonly path: string) {
    this.reload();
  }

  /** Reads the file again (SIGHUP): keys added or revoked without a restart. Throws ConfigError, keeping the old keys. */
  reload(): number {
    const file = readApiKeysFile(this.path);
    // One object per tier: the limiter's view of a tier is made once per object (src/limits/store-policies.ts).
    const tiers = new Map<string, Tier>();
    for (const [name, t] of Object.entries(file.tiers ?? {}))
      tiers.set(name, { name, multiplier: t.multiplier, ...(t.quota ? { quota: t.quota } : {}) });
    this.keys = file.keys.map((key) => ({
      owner: { id: key.id, ...(key.tier ? { tier: tiers.get(key.tier)! } : {}) },
      digest: Buffer.from(key.sha256, 'hex'),
      webhookSecrets: [...(key.webhookSecrets ?? [])],
    }));
    return this.keys.length;
  }

  /** The owner of the key with this id as the file says now (a job runs under it), or null once revoked. */
  ownerById(id: string): KeyOwner | null {
    return this.keys.find((k) => k.owner.id === id)?.owner ?? null;
  }

  /** The webhook secrets of the key with this id, as the file says now (rotation applies at once); [] when none or revoked. */
  webhookSecrets(id: string): string[] {
    return this.keys.find((k) => k.owner.id === id)?.webhookSecrets ?? [];
  }

  /** The owner of `presented`, or null when it is no key of this hub. */
  identify(presented: string): KeyOwner | null {
    const digest = sha256(presented);
    let found: KeyOwner | null = null;
    for (const key of this.keys) {
      if (timingSafeEqual(key.digest, digest) && found === null) found = key.owner;
    }
    return found;
  }
}
