import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The executor and the Piscina wrapper: the only modules of the pool that touch threads, timers or the clock. */
const EXECUTOR = new Set(['pool.ts', 'workers.ts']);
const dir = new URL('./', import.meta.url);
const pureParts = readdirSync(dir).filter(
  (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'test-helpers.ts' && !EXECUTOR.has(f),
);

describe('the scheduler\'s pure parts (docs/architecture.md, "The pool")', () => {
  it('are the decision modules', () => {
    expect(pureParts).toEqual(
      expect.arrayContaining(['scheduler.ts', 'batcher.ts', 'tuning.ts', 'sweep.ts']),
    );
  });

  it.each(pureParts)(
    '%s imports no Piscina and no node: module, and reads no clock and sets no timer',
    (file) => {
      const text = readFileSync(new URL(file, dir), 'utf8');
      expect(text).not.toMatch(/from '(piscina|node:[\w/]+)'/);
      expect(text).not.toMatch(/\b(Date\.now|performance\.now|setTimeout|setInterval|setImmediate)\b/);
    },
  );
});
