import * as crypto from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ApiKeys, readApiKeysFile, sha256 } from './api-keys.js';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const hex = (key: string) => sha256(key).toString('hex');
function keysFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolhub-keys-')), 'keys.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('the API keys file', () => {
  it('identifies a key by its hash, with its tier', () => {
    const keys = new ApiKeys(
      keysFile({
        tiers: { pro: { multiplier: 10 } },
        keys: [
          { id: 'team-a', sha256: hex('secret-a'), tier: 'pro' },
          { id: 'team-b', sha256: hex('secret-b') },
        ],
      }),
    );
    expect(keys.identify('secret-a')).toEqual({ id: 'team-a', tier: { name: 'pro', multiplier: 10 } });
    expect(keys.identify('secret-b')).toEqual({ id: 'team-b' });
    expect(keys.identify('secret-c')).toBeNull();
  });

  it('compares in constant time with every stored digest, whatever matches', () => {
    const keys = new ApiKeys(
      keysFile({ keys: ['a', 'b', 'c'].map((k) => ({ id: `id-${k}`, sha256: hex(k) })) }),
    );
    const compare = vi.mocked(crypto.timingSafeEqual);
    compare.mockClear();
    expect(keys.identify('a')).toMatchObject({ id: 'id-a' });
    expect(compare).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['{ nope', /API_KEYS_FILE .*keys\.json: /],
    [{ keys: [{ id: 'x', sha256: 'not-hex' }] }, /\/keys\/0\/sha256 must match pattern/],
    [{ keys: [{ id: 'x', sha256: hex('k'), tier: 'gold' }] }, /names an unknown tier 'gold'/],
    [
      {
        keys: [
          { id: 'x', sha256: hex('k') },
          { id: 'x', sha256: hex('j') },
        ],
      },
      /key id 'x' is listed twice/,
    ],
    [{ tiers: { pro: { multiplier: 0 } }, keys: [] }, /multiplier must be > 0/],
    [{ keys: [], extra: 1 }, /must NOT have additional properties 'extra'/],
    // Quotas (docs/operations.md, "Quotas"): whole numbers from 0, named by tier and field.
    [
      { tiers: { pro: { multiplier: 1, quota: { runsPerDay: -1 } } }, keys: [] },
      /\/tiers\/pro\/quota\/runsPerDay must be >= 0/,
    ],
    [
      { tiers: { pro: { multiplier: 1, quota: { computeMsPerMonth: 2.5 } } }, keys: [] },
      /\/tiers\/pro\/quota\/computeMsPerMonth must be integer/,
    ],
    [
      { tiers: { pro: { multiplier: 1, quota: { runsPerWeek: 5 } } }, keys: [] },
      /\/tiers\/pro\/quota must NOT have additional properties 'runsPerWeek'/,
    ],
  ])('stops the boot naming the problem: %j', (content, message) => {
    expect(() => readApiKeysFile(keysFile(content))).toThrow(message);
    // One line, however many problems.
    expect(() => readApiKeysFile(keysFile(content))).toThrow(/^[^\n]+$/);
  });

  it('keeps the old keys and tiers when a reload finds a bad quota', () => {
    const path = keysFile({
      tiers: { pro: { multiplier: 1, quota: { runsPerDay: 5 } } },
      keys: [{ id: 'a', sha256: hex('k'), tier: 'pro' }],
    });
    const keys = new ApiKeys(path);
    writeFileSync(
      path,
      JSON.stringify({ tiers: { pro: { multiplier: 1, quota: { runsPerDay: -5 } } }, keys: [] }),
    );
    expect(() => keys.reload()).toThrow(/runsPerDay must be >= 0/);
    expect(keys.identify('k')?.tier?.quota).toEqual({ runsPerDay: 5 });
  });

  it('keeps the old keys when a reload finds the file broken', () => {
    const path = keysFile({ keys: [{ id: 'a', sha256: hex('k') }] });
    const keys = new ApiKeys(path);
    writeFileSync(path, '{ broken');
    expect(() => keys.reload()).toThrow(/API_KEYS_FILE/);
    expect(keys.identify('k')).toMatchObject({ id: 'a' });
  });
});
