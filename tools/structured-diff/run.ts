import type { ToolInput } from '../../src/shared/tool-def.js';
import { ToolInputError, unsupported } from '../../src/shared/tool-error.js';
import { type Change, describeOperation, diffPatch } from './diff.js';
import { readDocument } from './read-document.js';
import { MODES } from './tool.js';

/** Changes listed in the result; `stats` still counts every change. */
export const MAX_CHANGES = 1000;
/** Largest patch returned: patch mode is refused beyond it rather than cut. */
export const MAX_PATCH_OPERATIONS = 100_000;

export default async function run(input: ToolInput, mode: string) {
  if (!MODES.includes(mode)) throw unsupported('mode', mode, MODES);
  const left = readDocument(input.left, 'left');
  const right = readDocument(input.right, 'right');
  const patch = diffPatch(left.value, right.value);
  if (mode === 'patch' && patch.length > MAX_PATCH_OPERATIONS) {
    throw new ToolInputError(
      `the patch has ${patch.length} operations, more than the ${MAX_PATCH_OPERATIONS} patch mode returns; use summary mode or compare smaller documents`,
    );
  }
  const stats = { added: 0, removed: 0, changed: 0 };
  for (const operation of patch) {
    if (operation.op === 'add') stats.added += 1;
    else if (operation.op === 'remove') stats.removed += 1;
    else stats.changed += 1;
  }
  const changes: Change[] = patch
    .slice(0, MAX_CHANGES)
    .map((operation) => describeOperation(left.value, operation));
  return {
    equal: patch.length === 0,
    changes,
    stats,
    truncated: patch.length > MAX_CHANGES,
    formats: { left: left.source, right: right.source },
    ...(mode === 'patch' ? { patch } : {}),
  };
}
