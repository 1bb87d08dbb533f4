/**
 * Walks the subschemas of a draft-07 schema, following only schema-bearing keywords
 * (so data in `enum`, `const`, `default` or `examples` is never mistaken for a schema).
 * Used to locate what ajv's compile errors do not locate: bad regexes and missing $refs.
 * Hand-written: ajv exposes no public traversal, and json-schema-traverse is not a dependency.
 */
import { isPlainObject, pointerSegment } from './json-input.js';

const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];
const SCHEMA_ONE = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
];
const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf'];
/** Bounds the walk; the input is already depth-checked, this guards direct calls. */
const MAX_VISITS = 200_000;

/**
 * `path`: JSON Pointer from the root. `ref`: the same place as a `$ref` written in this
 * schema must name it (`#` + ref): a pointer from the nearest schema with an `$id` that
 * changes the base URI (draft-07 resolves `#/...` against that base), URI-encoded.
 */
export type SchemaVisitor = (schema: Record<string, unknown>, path: string, ref: string) => void;

/** A `$id` other than a bare fragment starts a new resource (ajv resolves it to a new base URI). */
const startsResource = (s: Record<string, unknown>) =>
  typeof s.$id === 'string' && s.$id.split('#')[0] !== '';

/** A `$ref` segment; a lone surrogate cannot be encoded (and is refused as a hazard): kept as is. */
function uriSegment(segment: string): string {
  try {
    return encodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function walkSchemas(root: unknown, visit: SchemaVisitor): void {
  // Breadth-first with a queue (no recursion), so the order is stable and shallow paths come first.
  const queue: { s: unknown; p: string; r: string }[] = [{ s: root, p: '', r: '' }];
  const push = (child: unknown, path: string, ref: string) => {
    if (queue.length < MAX_VISITS) queue.push({ s: child, p: path, r: ref });
  };
  for (let i = 0; i < queue.length; i++) {
    const { s, p } = queue[i]!;
    if (!isPlainObject(s)) continue;
    const r = startsResource(s) ? '' : queue[i]!.r;
    visit(s, p, r);
    for (const kw of SCHEMA_MAPS) {
      const map = s[kw];
      if (!isPlainObject(map)) continue;
      // `dependencies` values may be arrays of names: isPlainObject skips those when popped.
      for (const [k, v] of Object.entries(map)) {
        const seg = pointerSegment(k);
        push(v, `${p}/${kw}/${seg}`, `${r}/${kw}/${uriSegment(seg)}`);
      }
    }
    for (const kw of SCHEMA_ONE) if (kw in s) push(s[kw], `${p}/${kw}`, `${r}/${kw}`);
    for (const kw of [...SCHEMA_ARRAYS, 'items']) {
      const list = s[kw];
      if (Array.isArray(list)) {
        for (const [i, v] of list.entries()) push(v, `${p}/${kw}/${i}`, `${r}/${kw}/${i}`);
      } else if (kw === 'items') push(list, `${p}/items`, `${r}/items`);
    }
  }
}

export interface PatternIssue {
  path: string;
  message: string;
}

/** Every `pattern` and `patternProperties` key that is not a valid regex with the `u` flag (as ajv compiles them). */
export function findBadPatterns(root: unknown, max: number): PatternIssue[] {
  const issues: PatternIssue[] = [];
  const check = (source: string, path: string) => {
    if (issues.length >= max) return;
    try {
      new RegExp(source, 'u');
    } catch (err) {
      issues.push({ path, message: (err as Error).message });
    }
  };
  walkSchemas(root, (s, p) => {
    if (typeof s.pattern === 'string') check(s.pattern, `${p}/pattern`);
    if (isPlainObject(s.patternProperties)) {
      for (const key of Object.keys(s.patternProperties)) {
        check(key, `${p}/patternProperties/${pointerSegment(key)}`);
      }
    }
  });
  return issues;
}

/** Path of the first `$ref` that ajv reported as unresolvable ('' when it cannot be told). */
export function findRefPath(root: unknown, missingRef: string): string {
  let found: string | null = null;
  walkSchemas(root, (s, p) => {
    if (found !== null || typeof s.$ref !== 'string' || s.$ref === '') return;
    if (s.$ref === missingRef || missingRef.endsWith(s.$ref)) found = `${p}/$ref`;
  });
  return found ?? '';
}
