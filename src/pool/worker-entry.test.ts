import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, workerEntry, workerFile } from '../paths.js';
import { ToolPool } from './pool.js';

/**
 * The file Piscina loads in each worker (src/paths.ts, workers/entry.cjs). Piscina require()s
 * it, and on Node 20 a worker terminated while require() instantiates an ES module aborts the
 * whole process; a CI run lost a test file to it (a pool closed right after it started). The
 * race is a window of microseconds that cannot be hit on demand: what is checked is that no ES
 * module is on that path, and that pools closed while their workers start close cleanly.
 */
const fixture = (id: string) => join(projectRoot, 'test', 'fixtures', 'tools', id, 'run.ts');

describe("the pool's worker file", () => {
  it('is CommonJS, requires only a built-in, and imports the ES entry', () => {
    expect(extname(workerFile)).toBe('.cjs');
    const source = readFileSync(workerFile, 'utf8');
    expect([...source.matchAll(/require\('([^']+)'\)/g)].map((m) => m[1])).toEqual(['node:worker_threads']);
    expect(source).toContain('import(workerData.entry)');
    expect(workerEntry).toMatch(/^file:.*\/workers\/(source-worker\.mjs|tool-worker\.js)$/);
  });

  it('lets pools close while their workers are still starting, and runs through it', async () => {
    const options = {
      threads: 1,
      overflow: 1,
      maxQueue: 8,
      queueWaitMs: 30_000,
      heapMb: 128,
      resultMaxBytes: 1 << 20,
      tools: { 'fx-echo': fixture('fx-echo') },
    };
    for (let i = 0; i < 8; i++) {
      const pool = new ToolPool(options);
      await new Promise((resolve) => setTimeout(resolve, i * 5));
      await pool.close();
    }
    const pool = new ToolPool(options);
    try {
      const outcome = await pool.run({
        toolId: 'fx-echo',
        mode: 'upper',
        input: { text: 'hi' },
        timeoutMs: 10_000,
        bytes: 2,
      });
      expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
