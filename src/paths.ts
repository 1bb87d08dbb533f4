import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where things are, whether the hub runs from TypeScript sources (tsx, vitest) or from
 * the compiled `dist/`. Compiled code keeps the source layout under `dist/`, so
 * `tools/` and `workers/` sit beside `src/` in both cases. Documents (each tool's SKILL.md
 * and examples/, skills/common/) are not compiled: they stay in the source tree.
 */
const here = fileURLToPath(import.meta.url);

/** '.ts' from sources, '.js' when compiled. */
export const moduleExt = extname(here);
/** The folder holding src/, workers/ and tools/ (the project root, or dist/). */
export const codeRoot = dirname(dirname(here));
/** The folder holding package.json, skills/common/ and the tools' sources. */
export const projectRoot = basename(codeRoot) === 'dist' ? dirname(codeRoot) : codeRoot;

/** The built-in tools' code (tools/ or dist/tools/). */
export const toolsDir = join(codeRoot, 'tools');
/** The tool kit every tool imports as `#tool-kit` (src/tool-kit/ or dist/src/tool-kit/). */
export const toolKitDir = join(codeRoot, 'src', 'tool-kit');
/** The guides every tool shares, served as /skills/common/<name>.md. */
export const commonSkillsDir = join(projectRoot, 'skills', 'common');

/**
 * The folder holding a built-in tool's SKILL.md and examples/: its folder in the source
 * tree, also when the hub runs from dist/ (which holds compiled code only).
 */
export function toolDocsDir(toolId: string): string {
  return join(projectRoot, 'tools', toolId);
}

/**
 * The file Piscina loads in each worker: CommonJS (workers/entry.cjs says why), which imports
 * `workerEntry`.
 */
export const workerFile = join(codeRoot, 'workers', 'entry.cjs');
/** The pool's entry as a URL: compiled JS, or a shim that registers tsx in the worker first. */
export const workerEntry = pathToFileURL(
  join(codeRoot, 'workers', moduleExt === '.ts' ? 'source-worker.mjs' : 'tool-worker.js'),
).href;
