import { quote, type ToolInput, ToolInputError } from '#tool-kit';
import { applyJsonPatch } from './apply.js';
import { type Change, describeOperation, diffPatch } from './diff.js';
import { applyMergePatch, generateMergePatch, jsonEqual } from './merge-patch.js';
import { type ReadDocument, readDocument } from './read-document.js';

/** Changes listed in the result; `stats` still counts every change. */
export const MAX_CHANGES = 1000;
/** Largest patch returned: patch mode is refused beyond it rather than cut. */
export const MAX_PATCH_OPERATIONS = 100_000;
/** Inexact numbers named per document in a warning. */
const MAX_LISTED_NUMBERS = 5;
/** Paths named in a merge-patch warning. */
const MAX_LISTED_PATHS = 5;

/** The fields of each side: the diff modes compare left with right; apply takes the rest. */
const DIFF_FIELDS = ['left', 'right'] as const;
const APPLY_FIELDS = ['document', 'patch', 'target', 'patchFormat'] as const;

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

/** A bounded list of pointers for a message. */
function listPaths(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_LISTED_PATHS).map((p) => quote(p === '' ? '(root)' : p, 60));
  const more = paths.length > MAX_LISTED_PATHS ? ` and ${paths.length - MAX_LISTED_PATHS} more` : '';
  return `${shown.join(', ')}${more}`;
}

/** The schema cannot say which fields a mode needs (it has no mode): each mode checks its own. */
function checkFields(input: ToolInput, mode: string): void {
  const [needed, foreign] =
    mode === 'apply' ? [['document', 'patch'], DIFF_FIELDS] : [DIFF_FIELDS, APPLY_FIELDS];
  // patchFormat has a default, so it is present in every mode: only apply reads it.
  const stray = foreign.find((f) => input[f] !== undefined && f !== 'patchFormat');
  if (stray !== undefined) {
    throw new ToolInputError(
      mode === 'apply'
        ? `${stray} is for the diff modes; apply mode takes document (generic: a), patch (b) and target (c)`
        : `${stray} is for apply mode; ${mode} mode takes left (generic: a) and right (b)`,
    );
  }
  for (const field of needed) {
    if (input[field] === undefined) throw new ToolInputError(`${field} is required`);
  }
}

/** Input as the schema in tool.ts passed it: fields within their length, mode among MODES. */
export default async function run(input: ToolInput, mode: string) {
  checkFields(input, mode);
  if (mode === 'apply') return applyMode(input);
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
  const merge = mode === 'merge-patch' ? mergePatchDiff(left.value, right.value) : undefined;
  if (merge) warnings.push(...merge.warnings);
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
    ...(merge ? { mergePatch: merge.patch, mergePatchLossless: merge.lossless } : {}),
  };
}

/**
 * The RFC 7386 merge patch from left to right, proved by applying it to left: where the
 * result differs from right (a null right holds under an object reads as "remove"), the patch
 * is lossy and the warnings name the paths. Arrays that differ are carried whole.
 */
function mergePatchDiff(left: unknown, right: unknown) {
  const { patch, arraysReplaced } = generateMergePatch(left, right);
  const roundTrip = diffPatch(applyMergePatch(left, patch), right);
  const warnings: string[] = [];
  if (roundTrip.length > 0) {
    warnings.push(
      `the merge patch cannot set ${listPaths(roundTrip.map((o) => o.path).sort())} to null (in a merge patch null means remove): applying it removes those members instead, so mergePatchLossless is false; use patch mode for an exact patch`,
    );
  }
  if (arraysReplaced.length > 0) {
    warnings.push(
      `a merge patch replaces arrays whole: ${listPaths(arraysReplaced)} ${arraysReplaced.length === 1 ? 'is' : 'are'} sent in full, not item by item`,
    );
  }
  return { patch, lossless: roundTrip.length === 0, warnings };
}

type PatchFormat = 'json-patch' | 'merge-patch';

/** Applies a JSON Patch or a merge patch to document and, given a target, compares. */
function applyMode(input: ToolInput) {
  const document = readDocument(input.document, 'document');
  const patch = readDocument(input.patch, 'patch');
  const target = input.target === undefined ? undefined : readDocument(input.target, 'target');
  const requested = (input.patchFormat as string | undefined) ?? 'auto';
  // An RFC 6902 patch is always an array; an array as a merge patch would only replace the document.
  const format: PatchFormat =
    requested === 'auto'
      ? Array.isArray(patch.value)
        ? 'json-patch'
        : 'merge-patch'
      : (requested as PatchFormat);
  let result: unknown;
  if (format === 'json-patch') {
    if (!Array.isArray(patch.value)) {
      throw new ToolInputError(
        'patch is not a JSON Patch: RFC 6902 wants an array of operations such as [{"op": "add", "path": "/a", "value": 1}]',
      );
    }
    result = applyJsonPatch(document.value, patch.value);
  } else {
    result = applyMergePatch(document.value, patch.value);
  }
  const warnings = precisionWarnings(
    (
      [
        ['document', document],
        ['patch', patch],
        ['target', target],
      ] as [string, ReadDocument | undefined][]
    ).map(([field, read]) => [field, read?.inexact ?? []]),
  );
  const answer: Record<string, unknown> = {
    result,
    patchFormat: format,
    formats: {
      document: document.source,
      patch: patch.source,
      ...(target ? { target: target.source } : {}),
    },
  };
  if (target) {
    const matches = jsonEqual(result, target.value);
    answer.matchesTarget = matches;
    if (!matches) {
      const operation = diffPatch(result, target.value)[0];
      const first: Change = operation ? describeOperation(result, operation) : { op: 'replace', path: '' };
      answer.firstDifference = {
        path: first.path,
        ...(first.oldValue !== undefined ? { result: first.oldValue } : {}),
        ...(first.newValue !== undefined ? { target: first.newValue } : {}),
      };
    }
  }
  if (warnings.length > 0) answer.warnings = warnings;
  return answer;
}
