import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where things are, whether the hub runs from TypeScript sources (tsx, vitest) or from
 * the compiled `dist/`. Compiled code keeps the source layout under `dist/`, so
 * `tools/` and `workers/` sit beside `src/` in both cases; `skills/` stays at the root.
 */
const here = fileURLToPath(import.meta.url);

/** '.ts' from sources, '.js' when compiled. */
export const moduleExt = extname(here);
/** The folder holding src/, workers/ and tools/ (the project root, or dist/). */
export const codeRoot = dirname(dirname(here));
/** The folder holding package.json and skills/. */
export const projectRoot = basename(codeRoot) === 'dist' ? dirname(codeRoot) : codeRoot;

export const toolsDir = join(codeRoot, 'tools');
export const skillsDir = join(projectRoot, 'skills');
/** The pool's entry: compiled JS, or a shim that registers tsx in the worker first. */
export const workerFile = join(
  codeRoot,
  'workers',
  moduleExt === '.ts' ? 'source-worker.mjs' : 'tool-worker.js',
);
