import { type ToolInput, ToolInputError } from '#tool-kit';
import { type Change, describeOperation, diffPatch } from './diff.js';
import { readDocument } from './read-document.js';

/** Changes listed in the result; `stats` still counts every change. */
export const MAX_CHANGES = 1000;
/** Largest patch returned: patch mode is refused beyond it rather than cut. */
export const MAX_PATCH_OPERATIONS = 100_000;
/** Inexact numbers named per document in a warning. */
const MAX_LISTED_NUMBERS = 5;

/** Says which numbers were compared as the nearest double rather than as written. */
function precisionWarnings(documents: [string, string[]][]): string[] {
  return documents
    .filter(([, numbers]) => numbers.length > 0)
    .map(([field, numbers]) => {
      const shown = numbers
        .slice(0, MAX_LISTED_NUMBERS)
        .map((n) => (n.length > 40 ? `${n.slice(0, 40)}…` : n))
        .join(', ');
      const more =
        numbers.length > MAX_LISTED_NUMBERS ? ` and ${numbers.length - MAX_LISTED_NUMBERS} more` : '';
      return `${field} has numbers a 64-bit float cannot hold exactly (${shown}${more}): they are compared as the nearest double, so a difference beyond ~15 significant digits is not seen`;
    });
}

/** Input as the schema in tool.ts passed it: both documents present, text within its length. */
export default async function run(input: ToolInput, mode: string) {
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
  const warnings = precisionWarnings([
    ['left', left.inexact],
    ['right', right.inexact],
  ]);
  const changes: Change[] = patch
    .slice(0, MAX_CHANGES)
    .map((operation) => describeOperation(left.value, operation));
  return {
    equal: patch.length === 0,
    changes,
    stats,
    truncated: patch.length > MAX_CHANGES,
    formats: { left: left.source, right: right.source },
    // Only when there is something to say, so ordinary answers keep their shape.
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(mode === 'patch' ? { patch } : {}),
  };
}
