import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeRoot } from './paths.js';
import { partMeta, partName, WIRING, wiringRows } from './wiring.js';

/** Every module under src/<dir>/ whose default export is a registrable function. */
async function registrables(dir: string): Promise<unknown[]> {
  const files = readdirSync(join(codeRoot, 'src', dir)).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  const modules = await Promise.all(files.map((f) => import(`./${dir}/${f.replace(/\.ts$/, '.js')}`)));
  return modules.map((m: { default?: unknown }) => m.default).filter((d) => typeof d === 'function');
}

describe('WIRING', () => {
  it('registers every plugin of src/plugins/ and every route module of src/routes/, once', async () => {
    const listed = WIRING.map((p) => p.register);
    for (const dir of ['plugins', 'routes']) {
      const missing = (await registrables(dir)).filter((d) => !listed.includes(d as never));
      expect(
        missing.map((d) => (d as { name: string }).name),
        `src/${dir}/`,
      ).toEqual([]);
    }
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('names each part: a plugin by its fastify-plugin name, routes by their module', () => {
    const names = WIRING.map(partName);
    expect(new Set(names).size).toBe(names.length);
    for (const part of WIRING.filter((p) => p.kind === 'plugin')) expect(partName(part)).toMatch(/^toolhub-/);
    expect(wiringRows().every((r) => r.adds.length > 10)).toBe(true);
  });

  it('lists each plugin after the plugins it declares as dependencies', () => {
    const seen = new Set<string>();
    for (const part of WIRING) {
      for (const dep of partMeta(part)?.dependencies ?? [])
        expect(seen, `${partName(part)} needs ${dep}`).toContain(dep);
      seen.add(partName(part));
    }
  });
});
