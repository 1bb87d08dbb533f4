/** Shared helpers of this tool's tests (no vitest import: the build compiles this file too). */
import jsonpatch from 'fast-json-patch';
import { ToolInputError } from '../../src/shared/tool-error.js';
import type { Change, PatchOperation } from './diff.js';
import run from './run.js';

export interface DiffResult {
  equal: boolean;
  changes: Change[];
  stats: { added: number; removed: number; changed: number };
  truncated: boolean;
  formats: { left: string; right: string };
  patch?: PatchOperation[];
}

export const diff = async (left: unknown, right: unknown, mode = 'summary'): Promise<DiffResult> =>
  (await run({ left, right }, mode)) as DiffResult;

/** The oracle: fast-json-patch applies the patch to a deep clone of left. */
export function applyTo(left: unknown, patch: PatchOperation[]): unknown {
  return jsonpatch.applyPatch(jsonpatch.deepClone(left), patch as jsonpatch.Operation[], true, true)
    .newDocument;
}

/** Resolves to the ToolInputError a call rejects with (throws if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<ToolInputError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err instanceof ToolInputError) return err;
  throw new Error(`expected a ToolInputError, got ${err === undefined ? 'a result' : String(err)}`);
}
