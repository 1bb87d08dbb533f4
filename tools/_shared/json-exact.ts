/**
 * Checks that decide whether a JSON value can be written into generated code as a
 * literal (`JSON.stringify({...})`, a Python dict) without changing it: the request
 * builder's bodies and the response mocker's examples. When it cannot, the value
 * travels as its JSON text instead.
 */

const NUMBER = /-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;

/**
 * The first number of the JSON text whose value a double cannot hold exactly (an id
 * past 2^53, 0.1000000000000000055511, 1e-400), or undefined. The text must be valid
 * JSON: strings are skipped, so digits inside them are never read as numbers.
 */
export function lossyNumber(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      // Skip the string, escapes included.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (ch !== 0x2d && (ch < 0x30 || ch > 0x39)) continue;
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) continue;
    const token = match[0];
    if (decimal(token) !== decimal(JSON.stringify(Number(token)))) return token;
    i += token.length - 1;
  }
  return undefined;
}

/** Canonical `digits e exponent` form of a JSON number token, so equal values compare equal. */
function decimal(token: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token);
  if (!m) return token;
  const frac = m[3] ?? '';
  let digits = (m[2]! + frac).replace(/^0+/, '');
  if (digits === '') return '0';
  let exp = Number(m[4] ?? 0) - frac.length;
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  exp += trailing;
  return `${m[1]}${digits}e${exp}`;
}

/**
 * True when an object anywhere in the value has an own `__proto__` key: in a JavaScript
 * object literal that key sets the prototype instead, so the key would vanish.
 * The caller has already bounded the depth.
 */
export function hasProtoKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasProtoKey);
  if (Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value as Record<string, unknown>).some(hasProtoKey);
}
