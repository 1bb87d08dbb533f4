import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.js';

/**
 * Where a test goes (CONTRIBUTING.md, "Where a test goes"): beside the module it tests
 * (project `unit`, what `npm run check` runs) or in test/ (project `integration`). The two
 * never share a file name, and a test beside the code never starts the built server.
 */
const testsUnder = (dir: string): string[] =>
  readdirSync(join(projectRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts') && !f.split('/').includes('node_modules'))
    .map((f) => join(dir, f));

const beside = ['src', 'tools', 'workers'].flatMap(testsUnder);
const apart = testsUnder('test').filter((f) => !f.startsWith('test/stress/'));

describe('the layout of the tests', () => {
  it('finds both kinds', () => {
    expect(beside.length).toBeGreaterThan(100);
    expect(apart.length).toBeGreaterThan(40);
  });

  it('gives a test in test/ a name no test beside the code has', () => {
    const besideNames = new Set(beside.map((f) => basename(f)));
    expect(apart.filter((f) => besideNames.has(basename(f)))).toEqual([]);
  });

  it('keeps the built server and its processes out of the tests beside the code', () => {
    const starters = [/test\/server-process/, /dist\/src\/server\.js/, /node:child_process/];
    const offenders = beside.filter((f) => {
      const text = readFileSync(join(projectRoot, f), 'utf8');
      return starters.some((r) => r.test(text));
    });
    expect(offenders.map((f) => relative('.', f))).toEqual([]);
  });
});
