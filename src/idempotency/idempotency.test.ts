import { describe, expect, it } from 'vitest';
import { fingerprintOf, readIdempotencyKey, scopeOf } from './idempotency-key.js';
import { MemoryIdempotencyStore } from './memory-store.js';

describe('the Idempotency-Key header', () => {
  it('takes a Structured Field string or a bare key, 1 to 255 printable characters', () => {
    expect(readIdempotencyKey(undefined)).toBeUndefined();
    expect(readIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(readIdempotencyKey('abc')).toBe('abc');
    expect(readIdempotencyKey('"a\\"b"')).toBe('a"b');
    expect(readIdempotencyKey('x'.repeat(255))).toHaveLength(255);
    for (const bad of ['', '""', 'x'.repeat(256), 'tab\there', 'é'])
      expect(() => readIdempotencyKey(bad), bad).toThrow(/Idempotency-Key must be 1 to 255/);
    expect(() => readIdempotencyKey(['a', 'b'])).toThrow(/one Idempotency-Key/);
  });

  it('scopes keys per caller, and fingerprints method, URL and body', () => {
    expect(scopeOf('key:a', 'k')).not.toBe(scopeOf('key:b', 'k'));
    expect(fingerprintOf('POST', '/x', { a: 1 })).toBe(fingerprintOf('POST', '/x', { a: 1 }));
    expect(fingerprintOf('POST', '/x', { a: 1 })).not.toBe(fingerprintOf('POST', '/y', { a: 1 }));
    expect(fingerprintOf('POST', '/x', { a: 1 })).not.toBe(fingerprintOf('POST', '/x', { a: 2 }));
  });
});

describe('the in-memory store', () => {
  const answer = (body: string) => ({ status: 200, headers: { 'content-type': 'application/json' }, body });

  it('claims, replays, tells a mismatch and a pending claim, and lets go', async () => {
    let now = 0;
    const store = new MemoryIdempotencyStore(1 << 20, () => now);
    expect(await store.begin('s', 'f1', 1000)).toEqual({ kind: 'new' });
    expect(await store.begin('s', 'f1', 1000)).toEqual({ kind: 'pending' });
    expect(await store.begin('s', 'f2', 1000)).toEqual({ kind: 'mismatch' });
    await store.complete('s', 'f1', answer('{"ok":true}'), 60);
    expect(await store.begin('s', 'f1', 1000)).toEqual({ kind: 'replay', answer: answer('{"ok":true}') });
    now += 61_000;
    expect(await store.begin('s', 'f1', 1000)).toEqual({ kind: 'new' });
    await store.abandon('s');
    expect(await store.begin('s', 'f2', 1000)).toEqual({ kind: 'new' });
  });

  it('drops the oldest keys past its byte bound', async () => {
    const store = new MemoryIdempotencyStore(5000);
    for (let i = 0; i < 10; i++) await store.complete(`s${i}`, 'f', answer('x'.repeat(1000)), 60);
    expect(await store.begin('s0', 'f', 1000)).toEqual({ kind: 'new' });
    expect((await store.begin('s9', 'f', 1000)).kind).toBe('replay');
  });
});
