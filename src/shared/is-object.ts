/** A JSON object (not null, not an array): what a parsed message or field must be to read its members. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
