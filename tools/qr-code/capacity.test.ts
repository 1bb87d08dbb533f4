import { describe, expect, it } from 'vitest';
import run from './run.js';

describe('qr-code capacity message', () => {
  it('states the alphanumeric capacity too: 4296 upper-case characters fit at L, 4297 do not', async () => {
    const fit = (await run({ data: 'A'.repeat(4296), errorCorrection: 'L' }, 'svg')) as { version: number };
    expect(fit.version).toBe(40);
    const err = await run({ data: 'A'.repeat(4297), errorCorrection: 'L' }, 'svg').catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'INVALID_INPUT' });
    // "the maximum is 2953 bytes" alone would be wrong here: 4296 of these characters fit.
    expect((err as Error).message).toContain('4296 if only 0-9, A-Z, space and $%*+-./:');
  });
});
