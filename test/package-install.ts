/**
 * A tool package as an operator installs it: packed with `npm pack`, installed with npm into
 * an app folder of its own (the TOOL_PACKAGES_DIR), or, where npm refuses to work offline,
 * the tarball extracted where npm would have put it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** npm with the test's environment minus what an enclosing `npm test` sets for its own project. */
export function npm(args: string[], cwd: string) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_(config|package|lifecycle)_/i.test(k)),
  );
  return spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
}

export interface Installed {
  /** The tarball's file name. */
  tarball: string;
  /** `npm install --offline`, or `tar` when npm refused. */
  installedWith: string;
}

/** Packs `source` into `work/pack`, and installs the tarball into the app folder `app` (created). */
export function packAndInstall(source: string, name: string, work: string, app: string): Installed {
  const packed = join(work, 'pack');
  mkdirSync(packed, { recursive: true });
  mkdirSync(app, { recursive: true });
  const pack = npm(['pack', source, '--pack-destination', packed, '--silent'], work);
  expect(pack.status, pack.stderr).toBe(0);
  const [tarball] = readdirSync(packed).filter((f) => f.endsWith('.tgz'));
  writeFileSync(join(app, 'package.json'), '{"name": "toolhub-packages", "private": true}\n');
  const install = npm(['install', '--no-audit', '--no-fund', '--offline', join(packed, tarball!)], app);
  if (install.status === 0) return { tarball: tarball!, installedWith: 'npm install --offline' };
  const into = join(app, 'node_modules', name);
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', join(packed, tarball!), '-C', into, '--strip-components=1']);
  return { tarball: tarball!, installedWith: 'tar' };
}
