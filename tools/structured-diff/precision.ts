/**
 * Numbers a 64-bit float cannot hold as written. Both documents are compared after parsing,
 * so `12345678901234567890` and `12345678901234567891` (or 0.1 and 0.10000000000000001) read
 * as the same double and compare equal. The diff cannot see the difference; these helpers
 * find such numbers in the source text so the result can say so.
 */
import { type Document, isScalar, visit } from 'yaml';

/** A decimal number as sign, significant digits and exponent: `1.50e1` and `15` give "15e0". */
function decimalKey(text: string): string | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === '' && !m[3])) return null;
  const fraction = m[3] ?? '';
  let digits = m[2] + fraction;
  const lead = digits.search(/[1-9]/);
  if (lead < 0) return '0';
  digits = digits.slice(lead);
  const trimmed = digits.replace(/0+$/, '');
  const exponent = Number(m[4] ?? 0) - fraction.length + (digits.length - trimmed.length);
  return `${m[1] === '-' ? '-' : ''}${trimmed}e${exponent}`;
}

/** True when the number written as `source` does not survive a trip through a double. */
export function isInexact(source: string, value: number): boolean {
  const key = decimalKey(source);
  // Hex and octal (YAML): exact as long as they are safe integers.
  if (key === null) return !Number.isSafeInteger(value);
  return key !== decimalKey(String(value));
}

/** Strings are matched whole so that digits inside them are skipped. */
const JSON_TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** Number tokens of valid JSON text that a double does not hold exactly. */
export function inexactJsonNumbers(text: string): string[] {
  const found: string[] = [];
  for (const [token] of text.matchAll(JSON_TOKENS)) {
    if (token[0] !== '"' && isInexact(token, Number(token))) found.push(token);
  }
  return found;
}

/** Number scalars of a parsed YAML document that a double does not hold exactly. */
export function inexactYamlNumbers(doc: Document): string[] {
  const found: string[] = [];
  visit(doc, {
    Scalar(_, node) {
      if (isScalar(node) && typeof node.value === 'number' && node.source) {
        if (isInexact(node.source, node.value)) found.push(node.source);
      }
    },
  });
  return found;
}
