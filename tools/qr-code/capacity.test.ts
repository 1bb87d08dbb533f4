import { describe, expect, it } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';
import { MAX_DIGITS } from './capacity.js';
import run from './run.js';
import tool, { MAX_DATA_CHARS } from './tool.js';

const qrCode = toolRunner(tool, run);

describe('qr-code capacity message', () => {
  it('states the alphanumeric capacity too: 4296 upper-case characters fit at L, 4297 do not', async () => {
    const fit = (await qrCode({ data: 'A'.repeat(4296), errorCorrection: 'L' }, 'svg')) as {
      version: number;
    };
    expect(fit.version).toBe(40);
    // "the maximum is 2953 bytes" alone would be wrong here: 4296 of these characters fit.
    const over = qrCode({ data: 'A'.repeat(4297), errorCorrection: 'L' }, 'svg');
    await expectToolError(over, 'INVALID_INPUT', '4296 if only 0-9, A-Z, space and $%*+-./:');
  });

  it("bounds the input schema's data by the largest capacity there is", () => {
    expect(MAX_DATA_CHARS).toBe(Math.max(...Object.values(MAX_DIGITS)));
  });
});
