/**
 * Kinds of JSON value, for telling statically that a schema admits none. `integer` and
 * `number` are apart here (a `number` kind is a number that is not an integer), so
 * `type: "integer"` and a range holding no integer can be seen to leave nothing.
 */
export type Kind = 'null' | 'boolean' | 'object' | 'array' | 'string' | 'integer' | 'number';
export type Kinds = ReadonlySet<Kind>;

export const ALL_KINDS: Kinds = new Set<Kind>([
  'null',
  'boolean',
  'object',
  'array',
  'string',
  'integer',
  'number',
]);
export const NO_KINDS: Kinds = new Set<Kind>();

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The kinds a `type` keyword allows; every kind when it is absent (the sanitiser checked its shape). */
export function kindsOfType(type: unknown): Kinds {
  if (type === undefined) return ALL_KINDS;
  const names = Array.isArray(type) ? type : [type];
  const out = new Set<Kind>();
  for (const name of names) {
    if (name === 'number') out.add('number');
    // Every JSON Schema number type admits integers: 1 is a `number` too.
    if (name === 'number' || name === 'integer') out.add('integer');
    else out.add(name as Kind);
  }
  return out;
}

export function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as Kind;
}

export function intersect(a: Kinds, b: Kinds): Kinds {
  return new Set([...a].filter((k) => b.has(k)));
}

/** `string`, `string or number`: what a message says a node allows, in `type` words. */
export function describeKinds(kinds: Kinds): string {
  if (kinds.size === 0) return 'nothing';
  const list = [...kinds].flatMap((k): string[] => {
    if (k === 'integer') return [kinds.has('number') ? 'number' : 'integer'];
    return k === 'number' ? (kinds.has('integer') ? [] : ['non-integer number']) : [k];
  });
  return list.length === 1 ? list[0]! : `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
}

/** JSON text with sorted keys: two values are equal for JSON Schema when these match. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A value as a message quotes it, cut short. */
export function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
