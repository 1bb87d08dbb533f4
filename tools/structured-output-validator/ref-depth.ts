/**
 * Levels of nested objects below a schema, counted through local `$ref`s, for OpenAI strict
 * mode's nesting limit (SKILL.md, "Provider dialects"): a `$ref` counts as the schema it names,
 * written in its place. A recursion (a `$ref` leading back to a schema on the way, which strict
 * mode allows) is followed until a schema would repeat, within a fixed number of steps from
 * each schema (past them, the longest way found so far counts).
 *
 * Bounded work: each schema a `$ref` names is walked once; the `$ref` graph is split into its
 * strongly connected components (iterative Tarjan), so the depth below a schema outside any
 * recursion is computed once and reused; only the paths inside a recursion are searched, and
 * each search stops after MAX_RECURSION_STEPS.
 */
import { isPlainObject } from './json-input.js';
import { children, isObjectSchema } from './strict-shape.js';

/** Steps of the search inside a recursion from one schema (each one a `$ref` looked at). */
export const MAX_RECURSION_STEPS = 1000;

/** A schema a `$ref` names: its own levels of objects, and its `$ref`s with the level each sits at. */
interface Target {
  own: number;
  refs: { at: number; to: string; schema: unknown }[];
}

/** A local `$ref` as a key, percent-decoded (`#/%24defs/A` is `#/$defs/A`); undefined when not local or malformed. */
export function refKey(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  try {
    return `#${decodeURIComponent(ref.slice(1))}`;
  } catch {
    return undefined;
  }
}

/** `#/$defs/A` → the schema it names in `root`, or undefined (non-local, malformed or missing). */
function resolveLocalRef(root: unknown, ref: string): unknown {
  const pointer = refKey(ref)?.slice(1);
  if (pointer === undefined) return undefined;
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const part of pointer.slice(1).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(key)) node = node[Number(key)];
    else if (isPlainObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** Walks one schema as the strict lint does (properties one level deeper, items and anyOf not). */
function readTarget(schema: unknown, root: unknown): Target {
  const target: Target = { own: 0, refs: [] };
  const walk = (node: unknown, depth: number): void => {
    if (!isPlainObject(node)) return;
    const level = isObjectSchema(node) ? depth + 1 : depth;
    target.own = Math.max(target.own, level);
    const to = typeof node.$ref === 'string' ? refKey(node.$ref) : undefined;
    const schema = to === undefined ? undefined : resolveLocalRef(root, node.$ref as string);
    if (to !== undefined && schema !== undefined) target.refs.push({ at: depth, to, schema });
    for (const [child, , deeper] of children(node, '')) walk(child, deeper ? level : depth);
  };
  walk(schema, 0);
  return target;
}

/** The depth (levels of objects) below each schema a `$ref` from `root` reaches, `#` included. */
export function refDepths(root: unknown): Map<string, number> {
  const targets = new Map<string, Target>();
  const queue: { key: string; schema: unknown }[] = [{ key: '#', schema: root }];
  const queued = new Set(['#']);
  for (let i = 0; i < queue.length; i++) {
    const { key, schema } = queue[i] as { key: string; schema: unknown };
    const target = readTarget(schema, root);
    targets.set(key, target);
    for (const r of target.refs) {
      if (queued.has(r.to)) continue;
      queued.add(r.to);
      queue.push({ key: r.to, schema: r.schema });
    }
  }
  const depth = new Map<string, number>();
  for (const component of components(targets)) {
    const inside = new Set(component);
    // Outside the recursion: the depth of the other components, computed before (Tarjan's order).
    const outer = new Map<string, number>();
    for (const ref of component) {
      const t = targets.get(ref) as Target;
      let d = t.own;
      for (const r of t.refs) if (!inside.has(r.to)) d = Math.max(d, r.at + (depth.get(r.to) ?? 0));
      outer.set(ref, d);
    }
    // Each schema's own search and budget: its depth does not depend on the order of the others.
    for (const ref of component) {
      const budget = { steps: MAX_RECURSION_STEPS };
      depth.set(ref, deepest(ref, new Set([ref]), targets, inside, outer, budget));
    }
  }
  return depth;
}

/** The longest way down from `ref` inside its recursion, no schema twice, within the step budget. */
function deepest(
  ref: string,
  path: Set<string>,
  targets: Map<string, Target>,
  inside: Set<string>,
  outer: Map<string, number>,
  budget: { steps: number },
): number {
  let d = outer.get(ref) ?? 0;
  for (const r of (targets.get(ref) as Target).refs) {
    if (budget.steps-- <= 0) break;
    if (!inside.has(r.to) || path.has(r.to)) continue;
    path.add(r.to);
    d = Math.max(d, r.at + deepest(r.to, path, targets, inside, outer, budget));
    path.delete(r.to);
  }
  return d;
}

/** Strongly connected components of the `$ref` graph, each after those it leads to (iterative Tarjan). */
function components(targets: Map<string, Target>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  for (const start of targets.keys()) {
    if (index.has(start)) continue;
    const frames: { ref: string; next: number }[] = [{ ref: start, next: 0 }];
    index.set(start, index.size);
    low.set(start, index.get(start) as number);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { ref: string; next: number };
      const refs = (targets.get(frame.ref) as Target).refs;
      if (frame.next < refs.length) {
        const to = (refs[frame.next++] as { to: string }).to;
        if (!index.has(to)) {
          index.set(to, index.size);
          low.set(to, index.get(to) as number);
          stack.push(to);
          onStack.add(to);
          frames.push({ ref: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.ref, Math.min(low.get(frame.ref) as number, index.get(to) as number));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.ref, Math.min(low.get(parent.ref) as number, low.get(frame.ref) as number));
      if (low.get(frame.ref) === index.get(frame.ref)) {
        const component: string[] = [];
        let ref: string;
        do {
          ref = stack.pop() as string;
          onStack.delete(ref);
          component.push(ref);
        } while (ref !== frame.ref);
        out.push(component);
      }
    }
  }
  return out;
}
