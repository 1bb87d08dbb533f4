import { ToolInputError } from '#tool-kit';

/**
 * Subschemas a schema may reach once every `$ref` is written out in place. json-schema-faker
 * merges `allOf` branches with their references resolved before it makes any value, so a
 * 1 kB schema whose definitions each reference the next twice (2^n subschemas) keeps a
 * worker busy for minutes; the value budget in generate.ts never gets a say.
 */
export const MAX_EXPANDED_NODES = 10000;

const SINGLE = ['items', 'additionalProperties', 'contains', 'not', 'if', 'then', 'else'];
const LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const MAPS = ['properties', 'dependentSchemas'];

/** Keywords whose subschemas apply to the data, by the shape of their value. */
export interface Applicators {
  single: readonly string[];
  lists: readonly string[];
  maps: readonly string[];
}
/** What the generator reads of a sanitised schema. */
const GENERATED: Applicators = { single: SINGLE, lists: LISTS, maps: MAPS };
/**
 * What a validator applies of the user's own schema: the keywords the generator ignores
 * apply too, and a `$ref` chain hidden under `propertyNames` multiplies validation alike.
 */
export const VALIDATED: Applicators = {
  single: [...SINGLE, 'additionalItems', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'],
  lists: [...LISTS, 'items'],
  maps: [...MAPS, 'patternProperties', 'dependencies'],
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Refuses a schema whose references expand past MAX_EXPANDED_NODES. */
export function checkExpansion(root: Record<string, unknown>, applicators = GENERATED): void {
  const { single, lists, maps } = applicators;
  const memo = new Map<string, number>();
  const open = new Set<string>();
  // Sizes are capped just past the limit, so the sums stay small numbers.
  const cap = (n: number): number => Math.min(n, MAX_EXPANDED_NODES + 1);

  const refSize = (ref: string): number => {
    const known = memo.get(ref);
    if (known !== undefined) return known;
    // A cycle is unrolled by the generator only up to its ref depth, over values it counts.
    if (open.has(ref)) return 1;
    open.add(ref);
    const target = resolve(root, ref);
    const n = target === undefined ? 1 : size(target);
    open.delete(ref);
    memo.set(ref, n);
    return n;
  };

  const size = (node: unknown): number => {
    if (!isObject(node)) return 1;
    let n = 1;
    if (typeof node.$ref === 'string') n += refSize(node.$ref);
    for (const k of single) if (node[k] !== undefined) n += size(node[k]);
    for (const k of lists) if (Array.isArray(node[k])) for (const s of node[k]) n = cap(n + size(s));
    for (const k of maps) if (isObject(node[k])) for (const s of Object.values(node[k])) n = cap(n + size(s));
    return cap(n);
  };

  // A self-including allOf hangs the generator; for the validator it is a bounded stack overflow.
  if (applicators === GENERATED) checkAllOfCycles(root);
  if (size(root) > MAX_EXPANDED_NODES) {
    throw new ToolInputError(
      `the schema's $refs expand to more than ${MAX_EXPANDED_NODES} subschemas; reference fewer definitions from each other`,
    );
  }
}

/**
 * json-schema-faker resolves the `$ref`s of `allOf` branches without counting them
 * against its reference depth, so `a: {allOf: [{$ref: a}]}` (directly or through other
 * definitions) merges forever. Such a schema describes nothing and is refused.
 */
function checkAllOfCycles(root: Record<string, unknown>): void {
  const done = new Set<string>();
  const visit = (node: unknown, path: string[]): void => {
    if (!isObject(node) || !Array.isArray(node.allOf)) return;
    for (const item of node.allOf) {
      if (!isObject(item)) continue;
      const ref = item.$ref;
      if (typeof ref !== 'string') {
        visit(item, path);
        continue;
      }
      if (path.includes(ref)) {
        throw new ToolInputError(`the schema's allOf includes itself through ${[...path, ref].join(' -> ')}`);
      }
      if (done.has(ref)) continue;
      visit(resolve(root, ref), [...path, ref]);
      done.add(ref);
    }
  };
  const walk = (node: unknown): void => {
    if (!isObject(node)) return;
    visit(node, []);
    for (const k of SINGLE) walk(node[k]);
    for (const k of LISTS) if (Array.isArray(node[k])) node[k].forEach(walk);
    for (const k of [...MAPS, '$defs']) if (isObject(node[k])) Object.values(node[k]).forEach(walk);
  };
  walk(root);
}

/** The node a local JSON Pointer reference (`#/a/b`) names, if any. */
function resolve(root: Record<string, unknown>, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
