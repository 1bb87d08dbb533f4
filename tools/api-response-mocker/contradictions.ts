import { arrayProblem, objectProblem } from './contradictions-containers.js';
import {
  ALL_KINDS,
  canonical,
  describeKinds,
  intersect,
  isObject,
  type Kind,
  type Kinds,
  kindOf,
  kindsOfType,
  NO_KINDS,
  quote,
} from './kinds.js';
import { rangeOf, rangeText, stepsIn } from './numeric.js';

/**
 * What a schema node may admit: the kinds of value, an upper bound on how many distinct
 * values (for `uniqueItems`), and why kinds were ruled out. Only cheap, certain reasoning
 * is done: a node is never called empty unless no value can fit it.
 */
export interface Verdict {
  kinds: Kinds;
  count: number;
  why: string[];
}

export type Analyse = (node: unknown, at: string) => Verdict;

const ANNOTATIONS = new Set(['title', 'description', '$comment', 'default', 'examples', '$id', '$schema']);
const EVERYTHING: Verdict = { kinds: ALL_KINDS, count: Number.POSITIVE_INFINITY, why: [] };

/**
 * Why the user's schema admits no value at all, naming the keyword and its path, or
 * undefined. Such a schema is refused: no generated body could fit it, and retrying
 * would only hide the reason. Runs on the original schema (after the sanitiser accepted
 * it) so that paths are the ones the user wrote.
 */
export function findContradiction(root: Record<string, unknown>): string | undefined {
  const memo = new Map<object, Verdict>();
  const open = new Set<object>();
  const analyse: Analyse = (node, at) => {
    if (node === false) return { kinds: NO_KINDS, count: 0, why: [`schema at ${at} is false`] };
    if (!isObject(node)) return EVERYTHING;
    const known = memo.get(node);
    if (known) return known;
    // A cycle is not followed twice: assuming anything fits keeps the verdict safe.
    if (open.has(node)) return EVERYTHING;
    open.add(node);
    const verdict = analyseNode(node, at, analyse, root);
    open.delete(node);
    memo.set(node, verdict);
    return verdict;
  };
  const verdict = analyse(root, '#');
  if (verdict.kinds.size > 0) return undefined;
  return `the schema admits no value: ${verdict.why.slice(0, 2).join('; ') || 'its keywords contradict each other'}`;
}

function analyseNode(node: Record<string, unknown>, at: string, analyse: Analyse, root: unknown): Verdict {
  const v = { kinds: kindsOfType(node.type), count: Number.POSITIVE_INFINITY, why: [] as string[] };
  const narrow = (allowed: Kinds, reason: () => string) => {
    const next = intersect(v.kinds, allowed);
    if (next.size < v.kinds.size && next.size === 0) v.why.push(reason());
    v.kinds = next;
  };
  const drop = (kinds: Kind[], reason: string) => {
    if (kinds.some((k) => v.kinds.has(k))) {
      v.kinds = new Set([...v.kinds].filter((k) => !kinds.includes(k)));
      v.why.push(reason);
    }
  };
  const declared = describeKinds(v.kinds);
  let values: unknown[] | undefined;
  if ('const' in node) {
    narrow(
      new Set([kindOf(node.const)]),
      () => `schema at ${at}: const ${quote(node.const)} is not of type ${declared}`,
    );
    values = [node.const];
  }
  if (Array.isArray(node.enum)) {
    const fit = node.enum.filter(
      (e) => v.kinds.has(kindOf(e)) && (values === undefined || canonical(e) === canonical(values[0])),
    );
    const reason = values
      ? `const ${quote(values[0])} is not in enum`
      : `no enum value is of type ${declared}`;
    narrow(new Set(fit.map(kindOf)), () => `schema at ${at}: ${reason}`);
    values = fit;
  }
  if (values) v.count = new Set(values.map(canonical)).size;
  checkNumbers(node, at, v.kinds, drop, (n) => {
    v.count = Math.min(v.count, n);
  });
  const arrays = v.kinds.has('array') ? arrayProblem(node, at, analyse) : undefined;
  if (arrays !== undefined) drop(['array'], arrays);
  const objects = v.kinds.has('object') ? objectProblem(node, at, analyse) : undefined;
  if (objects !== undefined) drop(['object'], objects);
  applyCombinators(node, at, analyse, v, root);
  if (v.kinds.size > 0 && [...v.kinds].every((k) => k === 'boolean' || k === 'null'))
    v.count = Math.min(v.count, (v.kinds.has('boolean') ? 2 : 0) + (v.kinds.has('null') ? 1 : 0));
  return v;
}

type Drop = (kinds: Kind[], reason: string) => void;

/** A range holding no multiple of `multipleOf`, or (for integers) no integer. */
function checkNumbers(
  node: Record<string, unknown>,
  at: string,
  kinds: Kinds,
  drop: Drop,
  bound: (n: number) => void,
) {
  if (!kinds.has('integer') && !kinds.has('number')) return;
  const r = rangeOf(node);
  const step = node.multipleOf;
  if (typeof step === 'number' && step > 0) {
    const ks = stepsIn(r, step);
    if (ks && ks[0] > ks[1])
      drop(['integer', 'number'], `schema at ${at}: no multiple of multipleOf ${step} lies ${rangeText(r)}`);
  }
  const ints = stepsIn(r, 1);
  if (ints && ints[0] > ints[1]) drop(['integer'], `schema at ${at}: no integer lies ${rangeText(r)}`);
  else if (ints && kinds.size === 1 && kinds.has('integer')) bound(ints[1] - ints[0] + 1);
}

/** allOf narrows, anyOf/oneOf allow what some branch allows, `not` removes what it surely matches, $ref narrows. */
function applyCombinators(
  node: Record<string, unknown>,
  at: string,
  analyse: Analyse,
  v: Verdict,
  root: unknown,
) {
  const meet = (other: Verdict, where: string) => {
    const before = v.kinds;
    v.count = Math.min(v.count, other.count);
    v.kinds = intersect(v.kinds, other.kinds);
    if (other.kinds.size === 0) v.why.push(...other.why);
    else if (v.kinds.size === 0 && before.size > 0)
      v.why.push(
        `schema at ${where} allows only ${describeKinds(other.kinds)}, but ${at} allows only ${describeKinds(before)}`,
      );
  };
  const allOf: unknown[] = Array.isArray(node.allOf) ? node.allOf : [];
  for (const [i, branch] of allOf.entries()) meet(analyse(branch, `${at}/allOf/${i}`), `${at}/allOf/${i}`);
  for (const kw of ['anyOf', 'oneOf']) {
    const list = node[kw];
    if (!Array.isArray(list)) continue;
    const branches = list.map((b, i) => analyse(b, `${at}/${kw}/${i}`));
    const kinds = new Set(branches.flatMap((b) => [...b.kinds]));
    const why =
      kinds.size === 0 ? [`schema at ${at}/${kw}: no branch admits a value (${branches[0]?.why[0]})`] : [];
    meet({ kinds, count: branches.reduce((n, b) => n + b.count, 0), why }, `${at}/${kw}`);
  }
  const not = node.not;
  if (not === true || (isObject(not) && Object.keys(not).every((k) => ANNOTATIONS.has(k) || k === 'type'))) {
    const excluded = not === true || not.type === undefined ? ALL_KINDS : kindsOfType(not.type);
    const before = v.kinds;
    v.kinds = new Set([...v.kinds].filter((k) => !excluded.has(k)));
    if (v.kinds.size === 0 && before.size > 0)
      v.why.push(
        `schema at ${at}/not: it rejects ${not === true || excluded === ALL_KINDS ? 'every value' : `every ${describeKinds(before)}`}`,
      );
  }
  if (typeof node.$ref === 'string') meet(analyse(resolve(root, node.$ref), node.$ref), `${at}/$ref`);
}

/** The node a local JSON Pointer reference names; anything (unknown) when it names none. */
function resolve(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return true;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return true;
  }
  return node;
}
