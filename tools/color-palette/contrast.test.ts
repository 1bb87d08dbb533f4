import { describe, expect, it } from 'vitest';
import { colorPalette, type Palette, type Result } from './test-helpers.js';

/** WCAG 2.x relative luminance and contrast of an 8-bit hex colour, written from the spec (oracle). */
function wcag(hex: string): { white: number; black: number } {
  const lin = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const y = 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5);
  return { white: 1.05 / (y + 0.05), black: (y + 0.05) / 0.05 };
}

describe('color-palette WCAG contrast', () => {
  it('never rounds a failing ratio up to a threshold: #c800ec on white is 4.4996, below AA 4.5', async () => {
    const r = (await colorPalette({ color: '#c800ec' }, 'convert')) as Result;
    expect(wcag('#c800ec').white).toBeLessThan(4.5);
    expect(r.contrast.white).toBe(4.49);
    expect((await colorPalette({ color: 'red' }, 'convert')) as Result).toMatchObject({
      contrast: { white: 3.99, black: 5.25 }, // 3.998:1, not the 4:1 rounding gave
    });
  });

  it('gives the ratio of the hex it returns, for every palette colour', async () => {
    for (const scheme of ['shades', 'tints', 'triadic', 'analogous']) {
      const r = (await colorPalette({ color: 'oklch(62% 0.3 300)', count: 20 }, scheme)) as Palette;
      for (const c of r.colors) {
        const exact = wcag(c.hex);
        expect(c.contrast.white).toBe(Math.floor(exact.white * 100 + 1e-9) / 100);
        expect(c.contrast.black).toBe(Math.floor(exact.black * 100 + 1e-9) / 100);
      }
    }
    // The last shade writes as #000000: its ratio against white is 21, not 20.99.
    const shades = (await colorPalette({ color: '#3b82f6', count: 20 }, 'shades')) as Palette;
    expect(shades.colors.at(-1)).toMatchObject({ hex: '#000000', contrast: { white: 21, black: 1 } });
  });

  it('reads a `none` channel as 0, in gamut', async () => {
    const r = (await colorPalette({ color: 'rgb(none 0 0)' }, 'convert')) as Result;
    expect(r).toMatchObject({ hex: '#000000', inGamut: true });
  });
});
