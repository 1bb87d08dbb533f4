import { displayable, parse } from 'culori';
import { describe, expect, it } from 'vitest';
import { expectToolError } from '../_shared/test-helpers.js';
import { generate, hueDiff, lchOf, type Palette } from './test-helpers.js';
import { SCHEMES } from './tool.js';

describe('generate', () => {
  const base = '#3366cc';

  it('gives count colours for every scheme, base included', async () => {
    for (const scheme of SCHEMES) {
      const p = await generate(base, scheme);
      expect(p.scheme).toBe(scheme);
      expect(p.colors).toHaveLength(5);
      expect(p.colors[p.baseIndex]!.hex).toBe('#3366cc');
      expect(p.base.hex).toBe('#3366cc');
      for (const c of p.colors) {
        expect(c.hex).toMatch(/^#[0-9a-f]{6}$/);
        expect(c.rgb).toMatch(/^rgb\(\d+, \d+, \d+\)$/);
        expect(c.hsl).toMatch(/^hsl\(/);
        expect(c.contrast.white * c.contrast.black).toBeCloseTo(21, 0);
      }
    }
  });

  it('puts the complement 180° away in OKLCH', async () => {
    const p = await generate(base, 'complementary', 2);
    expect(hueDiff(p.colors[0]!.oklch, p.colors[1]!.oklch)).toBeCloseTo(180, 0);
    // and the lightness is kept
    expect(lchOf(p.colors[1]!.oklch).l).toBeCloseTo(lchOf(p.colors[0]!.oklch).l, 3);
  });

  it('rotates hues by the scheme offsets', async () => {
    const cases: [string, number[]][] = [
      ['triadic', [120, 240]],
      ['tetradic', [90, 180, 270]],
      ['split-complementary', [150, 210]],
    ];
    for (const [scheme, offsets] of cases) {
      const p = await generate(base, scheme, offsets.length + 1);
      offsets.forEach((offset, i) => {
        expect(hueDiff(p.colors[0]!.oklch, p.colors[i + 1]!.oklch), scheme).toBeCloseTo(offset, 0);
      });
    }
  });

  it('spaces analogous hues 30° apart around the base', async () => {
    const p = await generate(base, 'analogous');
    expect(p.baseIndex).toBe(2);
    for (let i = 1; i < 5; i++)
      expect(hueDiff(p.colors[i - 1]!.oklch, p.colors[i]!.oklch)).toBeCloseTo(30, 0);
  });

  it('steps lightness only in monochromatic, shades and tints', async () => {
    const mono = await generate(base, 'monochromatic', 6);
    const shades = await generate(base, 'shades', 6);
    const tints = await generate(base, 'tints', 6);
    const ls = (p: Palette) => p.colors.map((c) => lchOf(c.oklch).l);
    const rising = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!);
    expect(rising(ls(mono))).toBe(true);
    expect(rising(ls(tints))).toBe(true);
    expect(rising(ls(shades).reverse())).toBe(true);
    for (const p of [mono, shades, tints]) {
      for (const c of p.colors) expect(lchOf(c.oklch).h).toBeCloseTo(lchOf(p.base.oklch).h!, 0);
    }
  });

  it('extends hue schemes with lighter and darker variants, all distinct', async () => {
    const p = await generate(base, 'complementary', 20);
    expect(p.colors).toHaveLength(20);
    expect(new Set(p.colors.map((c) => c.hex)).size).toBe(20);
  });

  it('keeps every colour in sRGB for a vivid base', async () => {
    for (const scheme of SCHEMES) {
      const p = await generate('#ff00ff', scheme, 12);
      for (const c of p.colors) expect(displayable(parse(c.hex)!)).toBe(true);
    }
  });

  it('bounds count: 1 to 20, integers only; hue schemes need their key colours', async () => {
    expect((await generate(base, 'analogous', 1)).colors).toHaveLength(1);
    expect((await generate(base, 'tints', 20)).colors).toHaveLength(20);
    expect((await generate(base, 'shades', '7')).colors).toHaveLength(7);
    await expectToolError(generate(base, 'analogous', 21), 'INVALID_INPUT', '20');
    await expectToolError(generate(base, 'analogous', 0), 'INVALID_INPUT');
    await expectToolError(generate(base, 'analogous', 2.5), 'INVALID_INPUT');
    await expectToolError(generate(base, 'analogous', 'many'), 'INVALID_INPUT');
    await expectToolError(generate(base, 'triadic', 2), 'INVALID_INPUT', 'at least 3');
    await expectToolError(generate(base, 'tetradic', 3), 'INVALID_INPUT', 'at least 4');
  });

  it('notes that a grey has no hue to rotate', async () => {
    const p = await generate('gray', 'complementary');
    expect(p.notes.join(' ')).toMatch(/grey/);
    for (const c of p.colors) expect(lchOf(c.oklch).c).toBeLessThan(0.001);
  });

  it('drops transparency and says so', async () => {
    const p = await generate('#3366cc80', 'tints');
    expect(p.base.hex).toBe('#3366cc');
    expect(p.notes.join(' ')).toMatch(/opaque/);
  });

  it('is deterministic', async () => {
    expect(await generate('oklch(0.7 0.15 40)', 'tetradic', 9)).toEqual(
      await generate('oklch(0.7 0.15 40)', 'tetradic', 9),
    );
  });
});
