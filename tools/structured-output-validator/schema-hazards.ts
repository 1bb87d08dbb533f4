/**
 * Problems ajv does not report well, found before compiling:
 * - a `$ref` cycle that never moves into the data (`a: {anyOf: [{$ref: a}]}`): ajv's
 *   validator recurses on the same value until the stack overflows;
 * - `$ref`s that multiply on one value (each definition referencing the next twice in
 *   anyOf): 26 such definitions make 2^26 evaluations, and with allErrors as many errors,
 *   which exhausts the heap of the worker;
 * - a property name with a lone surrogate: ajv percent-encodes names into schema paths
 *   and fails with a bare "URI malformed".
 */
import { isPlainObject, pointerSegment } from './json-input.js';
import { type SchemaVisitor, walkSchemas } from './schema-walk.js';

export interface Hazard {
  path: string;
  keyword: string;
  message: string;
}

/** Subschema evaluations one value may cost; real schemas stay far below. */
export const MAX_SAME_VALUE_EVALUATIONS = 10000;

/** Longest chain of same-value subschemas followed. */
const MAX_CHAIN = 1000;

/** Keywords whose subschemas apply to the same value as their parent (draft-07). */
const SAME_ONE = ['not', 'if', 'then', 'else'];
const SAME_LISTS = ['allOf', 'anyOf', 'oneOf'];
const NAMED_MAPS = ['properties', 'patternProperties', 'dependencies'];

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function findSchemaHazards(root: unknown): Hazard[] {
  const hazards: Hazard[] = [];
  const visit: SchemaVisitor = (s, p) => {
    for (const kw of NAMED_MAPS) {
      if (!isPlainObject(s[kw])) continue;
      for (const key of Object.keys(s[kw])) {
        if (LONE.test(key)) {
          hazards.push({
            path: `${p}/${kw}/${pointerSegment(key)}`,
            keyword: kw,
            message: 'the property name holds a lone surrogate (no UTF-8 form); ajv cannot compile it',
          });
        }
      }
    }
    if (typeof s.$ref === 'string' && LONE.test(s.$ref)) {
      hazards.push({ path: `${p}/$ref`, keyword: '$ref', message: 'the $ref holds a lone surrogate' });
    }
  };
  walkSchemas(root, visit);
  if (hazards.length > 0) return hazards.slice(0, 1);
  const ref = checkSameValueRefs(root);
  return ref ? [ref] : [];
}

/** A pointer `$ref` into this document, decoded as ajv does; undefined for any other reference. */
function resolve(root: unknown, ref: string): { node: unknown; path: string } | undefined {
  if (ref === '#') return { node: root, path: '' };
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  let path = '';
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isPlainObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
    path += `/${pointerSegment(key)}`;
  }
  return { node, path };
}

/**
 * Counts the subschemas evaluated against one value, following `$ref`s (memoised per
 * node). A subschema with its own `$id` gives the references inside it another base;
 * rather than guess, such documents are not followed at all (no false alarm).
 */
function checkSameValueRefs(root: unknown): Hazard | undefined {
  let rebased = false;
  walkSchemas(root, (s, p) => {
    if (p !== '' && '$id' in s) rebased = true;
  });
  if (rebased) return undefined;
  const memo = new Map<object, number>();
  const open = new Set<object>();
  let found: Hazard | undefined;
  const cap = (n: number) => Math.min(n, MAX_SAME_VALUE_EVALUATIONS + 1);

  /** `path`: where the node is in the document; `via`: the `$ref` that led here, if any. */
  const count = (node: unknown, path: string, via?: string, depth = 0): number => {
    // Past this depth a chain is not followed further (the stack is the limit, not the count).
    if (found || !isPlainObject(node) || depth > MAX_CHAIN) return 1;
    const known = memo.get(node);
    if (known !== undefined) return known;
    if (open.has(node)) {
      found = {
        path: via ?? path,
        keyword: '$ref',
        message:
          'this $ref leads back to a schema that applies to the same value, so validation can recurse without end',
      };
      return 1;
    }
    open.add(node);
    let n = 1;
    for (const kw of SAME_ONE) {
      // ajv ignores then/else without an if.
      if (!(kw in node) || ((kw === 'then' || kw === 'else') && !('if' in node))) continue;
      n = cap(n + count(node[kw], `${path}/${kw}`, undefined, depth + 1));
    }
    for (const kw of SAME_LISTS) {
      const list = node[kw];
      if (!Array.isArray(list)) continue;
      for (const [i, s] of list.entries()) n = cap(n + count(s, `${path}/${kw}/${i}`, undefined, depth + 1));
    }
    if (isPlainObject(node.dependencies)) {
      for (const [k, s] of Object.entries(node.dependencies)) {
        n = cap(n + count(s, `${path}/dependencies/${pointerSegment(k)}`, undefined, depth + 1));
      }
    }
    const target = typeof node.$ref === 'string' ? resolve(root, node.$ref) : undefined;
    if (target) n = cap(n + count(target.node, target.path, `${path}/$ref`, depth + 1));
    open.delete(node);
    memo.set(node, n);
    return n;
  };

  walkSchemas(root, (s, p) => {
    if (found || count(s, p) <= MAX_SAME_VALUE_EVALUATIONS) return;
    found = {
      path: p,
      keyword: '$ref',
      message: `the $refs here apply more than ${MAX_SAME_VALUE_EVALUATIONS} subschemas to one value; reference fewer definitions from each other`,
    };
  });
  return found;
}
