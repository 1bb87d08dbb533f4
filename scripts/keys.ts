// Manages the API keys file (docs/operations.md, "Securing the hub"):
//   npm run keys -- tier add <name> --multiplier <n> | tier list | tier remove <name>
//   npm run keys -- add <id> [--tier <name>] | revoke <id> | list | usage [id]
//   npm run keys -- webhook-secret rotate <id> | webhook-secret retire <id>
// The file is --file <path>, else API_KEYS_FILE, else ./api-keys.json (npm runs scripts in
// the project's root, where `API_KEYS_FILE=./api-keys.json npm start` finds it). A new key
// is printed once and only its SHA-256 is written; send SIGHUP to the hub to load a change.
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ApiKeysFile, readApiKeysFile, sha256 } from '../src/auth/api-keys.js';
import { printUsage } from './keys-usage.js';

const USAGE =
  'usage: npm run keys -- add <id> [--tier <name>] | revoke <id> | list | usage [id] | ' +
  'webhook-secret rotate <id> | webhook-secret retire <id> | ' +
  'tier add <name> --multiplier <n> | tier list | tier remove <name>   [--file <path>]';

const TIER_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const given = option('--file') ?? process.env.API_KEYS_FILE;
const file = resolve(given ?? 'api-keys.json');
const tierOption = option('--tier');
const multiplier = option('--multiplier');
const [command, ...rest] = args;

function fail(message: string): never {
  process.stderr.write(`keys: ${message}\n`);
  process.exit(2);
}
const say = (message: string) => process.stderr.write(`keys: ${message}\n`);

const fresh = !existsSync(file);
let data: ApiKeysFile = { tiers: {}, keys: [] };
try {
  if (!fresh) data = readApiKeysFile(file);
} catch (err) {
  fail((err as Error).message);
}
const tiers = data.tiers ?? {};

/**
 * Writes through a temporary file that must pass the hub's own check first: a hub
 * re-reading on SIGHUP never sees half a file, and a bad name or number never lands.
 */
function save(next: ApiKeysFile): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  try {
    readApiKeysFile(tmp);
  } catch (err) {
    rmSync(tmp, { force: true });
    fail((err as Error).message.replace(`API_KEYS_FILE ${tmp}: `, ''));
  }
  renameSync(tmp, file);
  if (fresh) {
    say(`created ${file}; start the hub with it: API_KEYS_FILE=${given ?? './api-keys.json'} npm start`);
  }
}

function tierCommand(sub: string | undefined, name: string | undefined): void {
  if (sub === 'list') {
    for (const [n, t] of Object.entries(tiers)) process.stdout.write(`${n} ${t.multiplier}\n`);
  } else if (sub === 'add' && name) {
    // The file's schema constrains tier names only by pattern: checked here (src/auth/api-keys.ts).
    if (!TIER_NAME.test(name)) fail(`tier name '${name}' must match ${TIER_NAME.source}`);
    const times = Number(multiplier);
    if (multiplier === undefined || !Number.isFinite(times)) fail('tier add needs --multiplier <n>, e.g. 10');
    // A tier that exists keeps its quota (docs/operations.md, "Quotas"): only the multiplier changes.
    save({ ...data, tiers: { ...tiers, [name]: { ...tiers[name], multiplier: times } } });
    say(
      `tier '${name}' gets ${times} × every tool's limit, burst, compute budget and per-client cap in ${file}`,
    );
  } else if (sub === 'remove' && name) {
    if (!tiers[name]) fail(`no tier '${name}' in ${file}`);
    const users = data.keys.filter((k) => k.tier === name).map((k) => k.id);
    if (users.length) fail(`tier '${name}' is used by ${users.join(', ')}; revoke those keys first`);
    const { [name]: _removed, ...others } = tiers;
    save({ ...data, tiers: others });
    say(`removed tier '${name}' from ${file}`);
  } else {
    fail(USAGE);
  }
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Rotation (docs/api.md, "Webhooks"): `rotate` adds a second secret, so that every delivery
 * carries two signatures while receivers move to the new one; `retire` drops the older.
 */
function webhookSecretCommand(sub: 'rotate' | 'retire', keyId: string): void {
  const key = data.keys.find((k) => k.id === keyId);
  if (!key) fail(`no key id '${keyId}' in ${file}`);
  const secrets = key.webhookSecrets ?? [];
  let next: string[];
  if (sub === 'rotate') {
    if (secrets.length >= 2) fail(`key '${keyId}' has two webhook secrets; retire the older first`);
    const secret = newWebhookSecret();
    next = [...secrets, secret];
    process.stdout.write(`${secret}\n`);
  } else {
    if (secrets.length < 2) fail(`key '${keyId}' has one webhook secret at most; rotate before retiring`);
    next = secrets.slice(1);
  }
  save({ ...data, keys: data.keys.map((k) => (k.id === keyId ? { ...k, webhookSecrets: next } : k)) });
  say(
    sub === 'rotate'
      ? `added a webhook secret to '${keyId}' (shown once); deliveries carry both signatures until you retire the older`
      : `retired the older webhook secret of '${keyId}'`,
  );
}

const [id] = rest;
if (command === 'tier') {
  tierCommand(rest[0], rest[1]);
} else if (command === 'add' && id) {
  if (data.keys.some((k) => k.id === id)) fail(`key id '${id}' exists; revoke it first`);
  if (tierOption && !tiers[tierOption]) {
    const known = Object.keys(tiers).join(', ') || 'none';
    fail(
      `unknown tier '${tierOption}' (tiers: ${known}); add it first: npm run keys -- tier add ${tierOption} --multiplier 10`,
    );
  }
  const key = `th_${randomBytes(32).toString('base64url')}`;
  const secret = newWebhookSecret();
  save({
    ...data,
    keys: [
      ...data.keys,
      {
        id,
        sha256: sha256(key).toString('hex'),
        ...(tierOption ? { tier: tierOption } : {}),
        webhookSecrets: [secret],
      },
    ],
  });
  process.stdout.write(`${key}\n${secret}\n`);
  say(
    `added '${id}'${tierOption ? ` (tier ${tierOption})` : ''} to ${file}; the key (line 1) and its webhook secret (line 2) are shown once`,
  );
} else if (command === 'webhook-secret' && (rest[0] === 'rotate' || rest[0] === 'retire') && rest[1]) {
  webhookSecretCommand(rest[0], rest[1]);
} else if (command === 'revoke' && id) {
  if (!data.keys.some((k) => k.id === id)) fail(`no key id '${id}' in ${file}`);
  save({ ...data, keys: data.keys.filter((k) => k.id !== id) });
  say(`revoked '${id}' in ${file}`);
} else if (command === 'list') {
  for (const k of data.keys) process.stdout.write(`${k.id}${k.tier ? ` ${k.tier}` : ''}\n`);
} else if (command === 'usage') {
  process.exitCode = await printUsage(data, id);
} else {
  fail(USAGE);
}
