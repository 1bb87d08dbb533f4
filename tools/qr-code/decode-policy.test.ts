/**
 * What happens when the decode check fails, with the check forced to fail (a code the
 * tool makes from valid input always scans, so the failure is simulated here).
 */
import { describe, expect, it, vi } from 'vitest';
import { expectToolError, toolRunner } from '../_shared/test-helpers.js';

const failing = vi.hoisted(() => ({ decoded: true, matches: false }));
vi.mock('./verify.js', () => ({
  checkPng: vi.fn(() => ({ ...failing, source: 'png' })),
  checkModules: vi.fn(() => ({ ...failing, source: 'modules' })),
}));

const { default: run } = await import('./run.js');
const { default: tool } = await import('./tool.js');
const verify = await import('./verify.js');
const qrCode = toolRunner(tool, run);

describe('qr-code when the decode check fails', () => {
  it('require (the default) refuses the code with INVALID_INPUT saying what to change', async () => {
    failing.decoded = true;
    await expectToolError(
      qrCode({ data: 'hi' }, 'png'),
      'INVALID_INPUT',
      'the code made read back as different text',
    );
    failing.decoded = false;
    const err = await expectToolError(qrCode({ data: 'hi', decodeCheck: 'require' }), 'INVALID_INPUT');
    expect(err.message).toBe(
      'the code made could not be read back (decode check with jsQR); use a larger size, a smaller logo area, ' +
        'a margin of 4 or colours with more contrast, or set decodeCheck to report to get it anyway',
    );
  });

  it('report returns the code with matches false; off does not decode at all', async () => {
    failing.decoded = false;
    const reported = (await qrCode({ data: 'hi', decodeCheck: 'report' }, 'png')) as { decodeCheck: unknown };
    expect(reported.decodeCheck).toEqual({ decoded: false, matches: false, source: 'png' });
    vi.mocked(verify.checkModules).mockClear();
    const off = (await qrCode({ data: 'hi', decodeCheck: 'off' }, 'utf8')) as { decodeCheck: unknown };
    expect(off.decodeCheck).toBeNull();
    expect(verify.checkModules).not.toHaveBeenCalled();
  });
});
