import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';

/** Files that are code or data a run can read; tests, documents and examples are not. */
const MODULE_FILE = /\.(?:[cm]?[jt]s|json)$/;
const TEST_FILE = /\.test\.[cm]?[jt]s$|^test-(?:helpers|harness)\./;
/** Bare specifiers of static and dynamic imports (`from 'x'`, `import('x')`, `import 'x'`). */
const BARE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"./#][^'"]*)['"]/g;

/**
 * A tool's version for the result cache's content key (docs/api.md, "Result cache and
 * ETags"): a hash of its folder's code, of the folders it shares with other tools (the tool
 * kit, tools/_shared), and of the installed version of every package that code imports.
 * Changing the tool, a shared helper or a library's version changes it, so results computed
 * by other code are never served; computed from the files (no hand-kept number to forget).
 * Packages those libraries import in turn are not followed: their versions are pinned by
 * the lock file along with the library's.
 */
export function toolVersion(folder: string, sharedFolders: readonly string[]): string {
  const hash = createHash('sha256');
  const packages = new Set<string>();
  for (const dir of [folder, ...sharedFolders]) {
    if (!existsSync(dir)) continue;
    for (const file of moduleFiles(dir)) {
      const text = readFileSync(file, 'utf8');
      hash.update(`${relative(dir, file)}\0${text}\0`);
      for (const m of text.matchAll(BARE_IMPORT)) {
        const name = packageName(m[1]!);
        if (!isBuiltin(name)) packages.add(name);
      }
    }
  }
  for (const name of [...packages].sort()) hash.update(`${name}@${installedVersion(name, folder)}\0`);
  return hash.digest('base64url').slice(0, 16);
}

function moduleFiles(dir: string): string[] {
  const out: string[] = [];
  // Code-unit order, not the locale's: every replica must hash the files in one order.
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'examples' && !e.name.startsWith('.'))
        out.push(...moduleFiles(path));
    } else if (MODULE_FILE.test(e.name) && !TEST_FILE.test(e.name)) {
      out.push(path);
    }
  }
  return out;
}

/** `@scope/pkg/sub` → `@scope/pkg`; `pkg/sub` → `pkg`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The version in the package.json node's resolution would find from `from`, or `?`. */
function installedVersion(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) {
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string };
      return version ?? '?';
    }
    if (dirname(dir) === dir) return '?';
  }
}
