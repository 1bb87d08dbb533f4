/**
 * Where `value` holds numbers that are not finite, as `path=value` (JSON paths, keys as JSON
 * strings). JSON text allows a number past a double's range (`1e400`) that a parser reads as
 * Infinity, and JSON.stringify writes it back as null: the content key keeps such a value
 * apart from null (src/cache/content-key.ts), the generic runtime refuses it
 * (src/run/runtime-input.ts).
 */
export function nonFinitePlaces(value: unknown, path = '', out: string[] = []): string[] {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) out.push(`${path}=${value}`);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) nonFinitePlaces(value[i], `${path}/${i}`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) nonFinitePlaces(v, `${path}/${JSON.stringify(k)}`, out);
  }
  return out;
}
