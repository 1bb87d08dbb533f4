/**
 * RFC 7386 JSON Merge Patch, written here rather than taken from `json-merge-patch` (kept as the
 * tests' oracle): that library's apply stops at a `constructor` or `prototype` key and returns
 * the target half-patched, and its generate looks keys up with indexOf (quadratic in the number
 * of keys). Documents reaching these functions were checked by read-document.ts: plain JSON,
 * no `__proto__` key, at most 100 levels deep (so the recursion is bounded).
 */
type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * JSON equality as RFC 6902 section 4.6 defines it for `test`: numbers by value (0 equals -0),
 * arrays item by item, objects by their own members whatever their order.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) => Object.hasOwn(b, key) && jsonEqual((a as JsonObject)[key], (b as JsonObject)[key]),
  );
}

/** RFC 7386 section 2, MergePatch(Target, Patch); `target` is not modified. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: JsonObject = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = applyMergePatch(Object.hasOwn(result, name) ? result[name] : undefined, value);
  }
  return result;
}

/** A merge patch and what it cannot say. */
export interface MergePatchDiff {
  patch: unknown;
  /** Pointers of arrays that differ: a merge patch carries them whole. */
  arraysReplaced: string[];
}

const escapeToken = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * A merge patch turning `left` into `right`: members removed are null, members changed are
 * patched recursively when both sides are objects and sent whole otherwise. A null in `right`
 * under an object cannot be expressed (null means "remove"): the caller finds such losses by
 * applying the patch and comparing (see mergePatchDiff in run.ts).
 */
export function generateMergePatch(left: unknown, right: unknown): MergePatchDiff {
  const arraysReplaced: string[] = [];
  const walk = (l: JsonObject, r: JsonObject, path: string): JsonObject => {
    const patch: JsonObject = {};
    for (const name of Object.keys(l)) if (!Object.hasOwn(r, name)) patch[name] = null;
    for (const [name, value] of Object.entries(r)) {
      const at = `${path}/${escapeToken(name)}`;
      if (!Object.hasOwn(l, name)) {
        patch[name] = value;
        continue;
      }
      const old = l[name];
      if (isObject(old) && isObject(value)) {
        const inner = walk(old, value, at);
        if (Object.keys(inner).length > 0) patch[name] = inner;
      } else if (!jsonEqual(old, value)) {
        if (Array.isArray(old) && Array.isArray(value)) arraysReplaced.push(at);
        patch[name] = value;
      }
    }
    return patch;
  };
  if (isObject(left) && isObject(right)) return { patch: walk(left, right, ''), arraysReplaced };
  // Any other root is replaced whole (an object right merges into {}, which loses its nulls).
  if (Array.isArray(left) && Array.isArray(right) && !jsonEqual(left, right)) arraysReplaced.push('');
  return { patch: right, arraysReplaced };
}
