import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readApiKeysFile, sha256 } from '../src/auth/api-keys.js';
import { projectRoot } from '../src/paths.js';
import { buildTestApp, FIXTURE_TOOLS, policyFile, REDIS_URL, redisPrefix, requireRedis } from './helpers.js';

/**
 * `npm run keys` (scripts/keys.ts; docs/operations.md, "Securing the hub") as a newcomer
 * runs it: no API_KEYS_FILE, a fresh folder. npm runs scripts in the project's root, so
 * each run here starts in a temporary folder of its own to find ./api-keys.json there.
 */
let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'toolhub-keys-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

function keys(args: string[], env: Record<string, string> = {}) {
  const { API_KEYS_FILE: _unset, ...rest } = process.env;
  const r = spawnSync(
    process.execPath,
    [join(projectRoot, 'node_modules/tsx/dist/cli.mjs'), join(projectRoot, 'scripts/keys.ts'), ...args],
    { cwd, encoding: 'utf8', env: { ...rest, ...env } },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Each test spawns the script (tsx) several times: on a loaded machine that is tens of seconds.
describe('npm run keys', { timeout: 180_000 }, () => {
  it('with no API_KEYS_FILE: a tier, then a key in it, in ./api-keys.json, saying where and how to start the hub', () => {
    const tier = keys(['tier', 'add', 'pro', '--multiplier', '10']);
    expect(tier.status).toBe(0);
    const file = join(cwd, 'api-keys.json');
    expect(tier.stderr).toContain(
      `created ${file}; start the hub with it: API_KEYS_FILE=./api-keys.json npm start`,
    );
    const add = keys(['add', 'team-a', '--tier', 'pro']);
    expect(add.status, add.stderr).toBe(0);
    // The key, then its webhook secret (docs/api.md, "Webhooks"): both shown once.
    const [key, secret] = add.stdout.trim().split('\n');
    expect(key).toMatch(/^th_[A-Za-z0-9_-]{43}$/);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(add.stderr).toContain(`added 'team-a' (tier pro) to ${file}`);
    expect(readApiKeysFile(file)).toEqual({
      tiers: { pro: { multiplier: 10 } },
      keys: [{ id: 'team-a', sha256: sha256(key!).toString('hex'), tier: 'pro', webhookSecrets: [secret] }],
    });
    expect(readFileSync(file, 'utf8')).not.toContain(key);
    // Rotation: a second secret, printed once; retiring drops the first.
    const rotated = keys(['webhook-secret', 'rotate', 'team-a']);
    expect(rotated.status, rotated.stderr).toBe(0);
    const next = rotated.stdout.trim();
    expect(next).toMatch(/^whsec_/);
    expect(readApiKeysFile(file).keys[0]!.webhookSecrets).toEqual([secret, next]);
    expect(keys(['webhook-secret', 'rotate', 'team-a']).stderr).toContain('has two webhook secrets');
    expect(keys(['webhook-secret', 'retire', 'team-a']).status).toBe(0);
    expect(readApiKeysFile(file).keys[0]!.webhookSecrets).toEqual([next]);
    expect(keys(['list']).stdout).toBe('team-a pro\n');
    expect(keys(['tier', 'list']).stdout).toBe('pro 10\n');
  });

  it('refuses an unknown tier with the command that adds it, and writes nothing', () => {
    const r = keys(['add', 'team-a', '--tier', 'pro']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "unknown tier 'pro' (tiers: none); add it first: npm run keys -- tier add pro --multiplier 10",
    );
    expect(existsSync(join(cwd, 'api-keys.json'))).toBe(false);
  });

  it('keeps the file valid: bad names and multipliers are refused, a tier in use is not removed', () => {
    expect(keys(['tier', 'add', 'pro', '--multiplier', '10']).status).toBe(0);
    expect(keys(['add', 'team-a', '--tier', 'pro']).status).toBe(0);
    const before = readFileSync(join(cwd, 'api-keys.json'), 'utf8');
    const refusals = [
      [['tier', 'add', 'Pro!', '--multiplier', '2'], "tier name 'Pro!' must match"],
      [['tier', 'add', 'free', '--multiplier', '0'], '/tiers/free/multiplier must be > 0'],
      [['tier', 'add', 'free'], 'tier add needs --multiplier <n>'],
      [['tier', 'remove', 'pro'], "tier 'pro' is used by team-a; revoke those keys first"],
      [['add', 'bad id'], '/keys/1/id must match pattern'],
      [['add', 'team-a'], "key id 'team-a' exists"],
    ] as const;
    for (const [args, message] of refusals) {
      const r = keys([...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(readFileSync(join(cwd, 'api-keys.json'), 'utf8')).toBe(before);
    expect(existsSync(join(cwd, 'api-keys.json.tmp'))).toBe(false);
    expect(keys(['revoke', 'team-a']).status).toBe(0);
    expect(keys(['tier', 'remove', 'pro']).status).toBe(0);
    expect(readApiKeysFile(join(cwd, 'api-keys.json'))).toEqual({ tiers: {}, keys: [] });
  });

  it('uses API_KEYS_FILE, or --file, when given', () => {
    const other = join(cwd, 'elsewhere.json');
    expect(keys(['add', 'team-b'], { API_KEYS_FILE: other }).status).toBe(0);
    expect(keys(['add', 'team-c', '--file', other]).status).toBe(0);
    expect(readApiKeysFile(other).keys.map((k) => k.id)).toEqual(['team-b', 'team-c']);
    expect(existsSync(join(cwd, 'api-keys.json'))).toBe(false);
  });

  it("usage: what each key used of every tool, read from the hub's Redis", async () => {
    await requireRedis();
    expect(keys(['tier', 'add', 'pro', '--multiplier', '2']).status).toBe(0);
    const key = keys(['add', 'team-a', '--tier', 'pro']).stdout.split('\n')[0]!;
    expect(keys(['add', 'team-b']).status).toBe(0);
    // A quota for the tier, written by hand (docs/operations.md, "Quotas"); changing the
    // tier's multiplier with the script keeps it.
    const file = join(cwd, 'api-keys.json');
    const data = readApiKeysFile(file);
    data.tiers!.pro = { multiplier: 3, quota: { runsPerDay: 10 } };
    writeFileSync(file, JSON.stringify(data));
    expect(keys(['tier', 'add', 'pro', '--multiplier', '2']).status).toBe(0);
    expect(readApiKeysFile(file).tiers!.pro).toEqual({ multiplier: 2, quota: { runsPerDay: 10 } });
    const env = {
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      API_KEYS_FILE: join(cwd, 'api-keys.json'),
      EXTRA_TOOL_DIRS: FIXTURE_TOOLS,
      // A rate limit apart from the quota: 1 a minute, 2 under the tier, so a third attempt is refused.
      POLICY_FILE: await policyFile({ tools: { 'fx-big': { limit: 1, burst: 0 } } }),
    };
    const app = await buildTestApp(env);
    try {
      for (const text of ['one', 'two']) {
        const res = await app.inject({ url: `/api/fx-echo/?text=${text}`, headers: { 'x-api-key': key } });
        expect(res.statusCode).toBe(200);
      }
      const big = () => app.inject({ url: '/api/fx-big/?text=1', headers: { 'x-api-key': key } });
      expect([(await big()).statusCode, (await big()).statusCode, (await big()).statusCode]).toEqual([
        200, 200, 429,
      ]);
    } finally {
      await app.close();
    }
    const all = keys(['usage'], env);
    expect(all.status, all.stderr).toBe(0);
    // Five attempts counted by the rate limits, four of them admitted: the runs the quota counts.
    expect(all.stdout).toMatch(
      /^team-a \(tier pro\): 5 attempts, \d+ worker ms, 0 runs in flight \(open windows\)$/m,
    );
    // The tier doubles the fixture's 1000 attempts a minute.
    expect(all.stdout).toMatch(
      /^ {2}fx-echo: rate limit 2\/2000\+0 attempts per 60 s \(resets in \d+ s\), budget \d+\/60000 worker ms, in flight 0\/8 runs$/m,
    );
    expect(all.stdout).toMatch(/^ {2}fx-big: rate limit 3\/2\+0 attempts per 60 s /m);
    expect(all.stdout).toMatch(
      /^ {2}quota of the key: today 4\/10 runs, \d+ worker ms \(resets \d{4}-\d\d-\d\dT00:00:00\.000Z\); this month 4 runs, \d+ worker ms \(resets \d{4}-\d\d-01T00:00:00\.000Z\)$/m,
    );
    expect(all.stdout).toMatch(/^team-b: 0 attempts, 0 worker ms, 0 runs in flight \(open windows\)$/m);
    const one = keys(['usage', 'team-b'], env);
    expect(one.stdout).not.toContain('team-a');
    expect(keys(['usage', 'nobody'], env).stderr).toContain("no key id 'nobody'");
    const { REDIS_URL: _none, ...withoutRedis } = env;
    const refused = keys(['usage'], withoutRedis);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("usage reads the hub's Redis");
  });
});
