/** Shared helpers of this tool's tests. */
import jsonpatch from 'fast-json-patch';
import { toolRunner } from '../_shared/test-helpers.js';
import type { Change, PatchOperation } from './diff.js';
import run from './run.js';
import tool from './tool.js';

export interface DiffResult {
  equal: boolean;
  changes: Change[];
  stats: { added: number; removed: number; changed: number };
  truncated: boolean;
  formats: { left: string; right: string };
  patch?: PatchOperation[];
}

/** The tool as the service runs it: input through its schema first. */
export const structuredDiff = toolRunner(tool, run);
export const diff = async (left: unknown, right: unknown, mode = 'summary'): Promise<DiffResult> =>
  (await structuredDiff({ left, right }, mode)) as unknown as DiffResult;

/** The oracle: fast-json-patch applies the patch to a deep clone of left. */
export function applyTo(left: unknown, patch: PatchOperation[]): unknown {
  return jsonpatch.applyPatch(jsonpatch.deepClone(left), patch as jsonpatch.Operation[], true, true)
    .newDocument;
}
