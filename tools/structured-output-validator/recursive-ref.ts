/**
 * Finds a recursive schema: a local `$ref` that leads back to a schema containing it.
 * Anthropic strict mode refuses these. Only the root and its top-level definitions can be
 * named by a local $ref here, so the graph is small; the search is iterative anyway.
 */
import { isPlainObject, pointerSegment } from './json-input.js';
import { definitions } from './strict-shape.js';

/** Pointer of a `$ref` that leads back to a schema containing it (a recursive schema), if any. */
export function findRecursiveRef(root: unknown, base: string): string | undefined {
  if (!isPlainObject(root)) return undefined;
  // Nodes a local $ref can name: the root and the (top-level) definitions.
  const targets = new Map<string, unknown>([['#', root]]);
  for (const [v, , name] of definitions(root, '')) {
    for (const kw of ['$defs', 'definitions']) {
      if (isPlainObject(root[kw]) && root[kw][name] === v) targets.set(`#/${kw}/${pointerSegment(name)}`, v);
    }
  }
  /** The $refs inside one target (not through other definitions), with their pointers. */
  const refsIn = (node: unknown, p: string, acc: [string, string][], top: boolean): [string, string][] => {
    if (!isPlainObject(node)) return acc;
    if (typeof node.$ref === 'string') acc.push([node.$ref, `${p}/$ref`]);
    for (const [k, v] of Object.entries(node)) {
      if (top && (k === '$defs' || k === 'definitions')) continue;
      if (['enum', 'const', 'default', 'examples', 'example'].includes(k)) continue;
      if (isPlainObject(v)) refsIn(v, `${p}/${pointerSegment(k)}`, acc, false);
      else if (Array.isArray(v)) {
        for (const [i, item] of v.entries()) refsIn(item, `${p}/${pointerSegment(k)}/${i}`, acc, false);
      }
    }
    return acc;
  };
  const pathOf = (ref: string) => (ref === '#' ? base : base + ref.slice(1));
  const edges = new Map<string, [string, string][]>();
  for (const [ref, node] of targets) edges.set(ref, refsIn(node, pathOf(ref), [], ref === '#'));
  // Depth-first search for a cycle, with an explicit stack (a chain of definitions can be long).
  const state = new Map<string, 1 | 2>();
  let found: string | undefined;
  for (const start of edges.keys()) {
    if (found || state.has(start)) continue;
    const stack: { ref: string; i: number }[] = [{ ref: start, i: 0 }];
    state.set(start, 1);
    while (stack.length > 0 && !found) {
      const top = stack[stack.length - 1]!;
      const out = edges.get(top.ref)!;
      if (top.i >= out.length) {
        state.set(top.ref, 2);
        stack.pop();
        continue;
      }
      const [to, at] = out[top.i++]!;
      const key = decodeRef(to);
      if (!edges.has(key)) continue;
      if (state.get(key) === 1) found = at;
      else if (!state.has(key)) {
        state.set(key, 1);
        stack.push({ ref: key, i: 0 });
      }
    }
  }
  return found;
}

function decodeRef(ref: string): string {
  try {
    return decodeURIComponent(ref);
  } catch {
    return ref;
  }
}
