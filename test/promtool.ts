import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/paths.js';

/** Where `npm test`'s pretest puts promtool when the system has none (scripts/provision-test-tools.sh). */
const provisioned = join(
  process.env.TEST_TOOLS_DIR ?? join(projectRoot, 'node_modules', '.cache', 'test-tools'),
  'bin',
  'promtool',
);

/**
 * Runs promtool: the system's if it is on PATH, else the one `npm test` provisioned.
 * Missing altogether, it fails (never skips) saying how to get it.
 */
export function promtool(args: string[], input?: string): SpawnSyncReturns<string> {
  const opts = { cwd: projectRoot, encoding: 'utf8' as const, input };
  let r = spawnSync('promtool', args, opts);
  if (r.error && existsSync(provisioned)) r = spawnSync(provisioned, args, opts);
  if (r.error) {
    throw new Error(
      `promtool is missing (${r.error.message}): 'npm test' provisions it (bash scripts/provision-test-tools.sh), ` +
        "or install Debian's package 'prometheus'",
    );
  }
  return r;
}
