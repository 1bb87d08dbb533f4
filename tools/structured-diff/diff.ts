/**
 * The diff itself is fast-json-patch's `compare` (index-based for arrays: removals from the end
 * first, additions in ascending order), so each operation's path is valid in left (remove,
 * replace) or right (add) as written, and the patch applies in order. `compare` only walks
 * containers of the same kind, so a root of another kind or a scalar root is handled here.
 */
import jsonpatch, { type Operation } from 'fast-json-patch';

export type PatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: unknown };

export interface Change {
  op: 'add' | 'remove' | 'replace';
  path: string;
  oldValue?: unknown;
  newValue?: unknown;
}

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** The RFC 6902 operations that turn `left` into `right`. */
export function diffPatch(left: unknown, right: unknown): PatchOperation[] {
  if (isContainer(left) && isContainer(right) && Array.isArray(left) === Array.isArray(right)) {
    return jsonpatch.compare(left, right) as Operation[] as PatchOperation[];
  }
  if (left === right) return [];
  return [{ op: 'replace', path: '', value: jsonpatch.deepClone(right) }];
}

/**
 * The value at a JSON Pointer, walking own properties only. fast-json-patch's
 * `getValueByPointer` refuses any path through `constructor/prototype` (its prototype
 * pollution guard), yet such keys are plain data in a parsed document.
 */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let node = document;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    node = Object.hasOwn(node as object, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** The change report for one operation; `left` is the original document. */
export function describeOperation(left: unknown, operation: PatchOperation): Change {
  switch (operation.op) {
    case 'add':
      return { op: 'add', path: operation.path, newValue: operation.value };
    case 'remove':
      return {
        op: 'remove',
        path: operation.path,
        oldValue: valueAt(left, operation.path),
      };
    case 'replace':
      return {
        op: 'replace',
        path: operation.path,
        oldValue: valueAt(left, operation.path),
        newValue: operation.value,
      };
  }
}
