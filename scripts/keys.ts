// Manages the API keys file (`npm run keys -- add <id> [--tier <tier>] | revoke <id> | list`).
// The file is API_KEYS_FILE, or --file <path>. A new key is printed once and only its
// SHA-256 is written; send SIGHUP to the hub to load the change.
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { type ApiKeysFile, readApiKeysFile, sha256 } from '../src/auth/api-keys.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const file = option('--file') ?? process.env.API_KEYS_FILE;
const tier = option('--tier');
const [command, id] = args;

function fail(message: string): never {
  process.stderr.write(`keys: ${message}\n`);
  process.exit(2);
}

if (!file) fail('set API_KEYS_FILE or pass --file <path>');
const data: ApiKeysFile = existsSync(file) ? readApiKeysFile(file) : { tiers: {}, keys: [] };

/** Writes through a temporary file: a hub re-reading on SIGHUP never sees half a file. */
function save(next: ApiKeysFile): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file!);
  readApiKeysFile(file!); // the file the hub will read is valid
}

if (command === 'add' && id) {
  if (data.keys.some((k) => k.id === id)) fail(`key id '${id}' exists; revoke it first`);
  if (tier && !data.tiers?.[tier])
    fail(`unknown tier '${tier}'; tiers: ${Object.keys(data.tiers ?? {}).join(', ') || 'none'}`);
  const key = `th_${randomBytes(32).toString('base64url')}`;
  save({
    ...data,
    keys: [...data.keys, { id, sha256: sha256(key).toString('hex'), ...(tier ? { tier } : {}) }],
  });
  process.stdout.write(`${key}\n`);
  process.stderr.write(
    `keys: added '${id}'${tier ? ` (tier ${tier})` : ''} to ${file}; the key is shown once\n`,
  );
} else if (command === 'revoke' && id) {
  if (!data.keys.some((k) => k.id === id)) fail(`no key id '${id}' in ${file}`);
  save({ ...data, keys: data.keys.filter((k) => k.id !== id) });
  process.stderr.write(`keys: revoked '${id}' in ${file}\n`);
} else if (command === 'list') {
  for (const k of data.keys) process.stdout.write(`${k.id}${k.tier ? ` ${k.tier}` : ''}\n`);
} else {
  fail('usage: npm run keys -- add <id> [--tier <tier>] | revoke <id> | list   [--file <path>]');
}
