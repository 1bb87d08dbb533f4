import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a tool's results are checked against (docs/tools.md): `tools/<toolId>/conformance.json`
 * is a list of these. `cases` is how many cases of the suite the named test runs; that test
 * reads this file and asserts the count, so the number in the docs cannot drift.
 */
export interface ConformanceEntry {
  /** The suite, vectors or independent implementation, e.g. "json-patch-tests (tests.json)". */
  suite: string;
  /** Where it comes from: a package and version, an RFC section, a reference repository. */
  source: string;
  cases: number;
  /** The test file that runs it, relative to the project root. */
  test: string;
}

export function readConformance(docsDir: string): ConformanceEntry[] {
  const path = join(docsDir, 'conformance.json');
  if (!existsSync(path)) return [];
  return JSON.parse(readFileSync(path, 'utf8')) as ConformanceEntry[];
}

/** The docs' table of a tool's conformance, or '' when it declares none. */
export function conformanceTable(entries: readonly ConformanceEntry[]): string {
  if (entries.length === 0) return '';
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return [
    'Checked against:',
    '',
    '| suite or oracle | source | cases | test |',
    '|---|---|---|---|',
    ...entries.map((e) => `| ${cell(e.suite)} | ${cell(e.source)} | ${e.cases} | \`${e.test}\` |`),
  ].join('\n');
}
