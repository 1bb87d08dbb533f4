/**
 * The numbers a schema node allows: its range and `multipleOf`. Shared by the static check
 * (no multiple or no integer in range) and the repair of a generated number.
 */
export interface Range {
  lo?: number;
  loExclusive: boolean;
  hi?: number;
  hiExclusive: boolean;
}

/** Tolerance on quotients: only a range clearly holding no multiple is called empty. */
const EPS = 1e-9;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The tighter of each pair of bounds; draft-04 boolean exclusives are ignored (a wider range). */
export function rangeOf(node: Record<string, unknown>): Range {
  const r: Range = { loExclusive: false, hiExclusive: false };
  if (finite(node.minimum)) r.lo = node.minimum;
  if (finite(node.exclusiveMinimum) && (r.lo === undefined || node.exclusiveMinimum >= r.lo)) {
    r.lo = node.exclusiveMinimum;
    r.loExclusive = true;
  }
  if (finite(node.maximum)) r.hi = node.maximum;
  if (finite(node.exclusiveMaximum) && (r.hi === undefined || node.exclusiveMaximum <= r.hi)) {
    r.hi = node.exclusiveMaximum;
    r.hiExclusive = true;
  }
  return r;
}

export function rangeText(r: Range): string {
  const lo = `${r.loExclusive ? 'exclusiveMinimum' : 'minimum'} ${r.lo}`;
  const hi = `${r.hiExclusive ? 'exclusiveMaximum' : 'maximum'} ${r.hi}`;
  return `between ${lo} and ${hi}`;
}

/** The first and last k with k * step in the range, or undefined when unbounded or huge. */
export function stepsIn(r: Range, step: number): [number, number] | undefined {
  if (r.lo === undefined || r.hi === undefined || !(step > 0)) return undefined;
  const q = r.lo / step;
  const p = r.hi / step;
  if (!Number.isFinite(q) || !Number.isFinite(p) || Math.abs(q) > 2 ** 52 || Math.abs(p) > 2 ** 52)
    return undefined;
  const first = r.loExclusive ? Math.floor(q + EPS) + 1 : Math.ceil(q - EPS);
  const last = r.hiExclusive ? Math.ceil(p - EPS) - 1 : Math.floor(p + EPS);
  return [first, last];
}

/**
 * Numbers to try in place of a generated one that breaks its node: multiples of `multipleOf`
 * near the value and at the ends of the range, including k = 2^j (a power of two times the
 * step is exact in binary, so `x / step` is an integer where k * step rounds badly, as with
 * 1e-9), or, without a step, the ends and middle of the range.
 */
export function numberCandidates(node: Record<string, unknown>, current: number, integer: boolean): number[] {
  const r = rangeOf(node);
  const given = finite(node.multipleOf) && node.multipleOf > 0 ? node.multipleOf : undefined;
  // An integer with a fractional step: a few consecutive integers hold a multiple of it.
  const step = integer && (given === undefined || !Number.isInteger(given)) ? 1 : given;
  const out: number[] = [];
  if (step === undefined) {
    const lo = r.lo ?? (r.hi !== undefined ? r.hi - 1 : 0);
    const hi = r.hi ?? lo + 1;
    out.push((lo + hi) / 2);
    if (!r.loExclusive) out.push(lo);
    if (!r.hiExclusive) out.push(hi);
    return out;
  }
  const near = Number.isFinite(current / step) ? Math.round(current / step) : 0;
  const [first, last] = stepsIn(r, step) ?? [
    r.lo === undefined ? near - 8 : Math.ceil(r.lo / step),
    r.hi === undefined ? near + 8 : Math.floor(r.hi / step),
  ];
  const ks = new Set<number>();
  for (let i = 0; i < 4; i++) ks.add(Math.min(Math.max(near + i, first), last));
  for (let i = 0; i < 4; i++) ks.add(first + i).add(last - i);
  const top = last > 0 ? 2 ** Math.floor(Math.log2(last)) : 0;
  if (top >= first) ks.add(top);
  for (const k of ks) {
    if (k < first || k > last) continue;
    const v = k * step;
    out.push(v, Number(v.toPrecision(15)));
  }
  return out;
}
