import { ToolInputError } from '#tool-kit';

export const MAX_MIN_LENGTH = 1000;
export const MAX_MIN_ITEMS = 50;
export const MAX_MIN_PROPERTIES = 50;
/** Upper bounds above max(lower bound, cap) are lowered: mock data need not be huge. */
const CAPS = {
  maxLength: ['minLength', 256],
  maxItems: ['minItems', 10],
  maxProperties: ['minProperties', 20],
} as const;
const LOWER_LIMITS = {
  minLength: MAX_MIN_LENGTH,
  minItems: MAX_MIN_ITEMS,
  minProperties: MAX_MIN_PROPERTIES,
} as const;
/** Lower and upper bound pairs; `strict` when equal values already leave nothing. */
const PAIRS: [low: string, high: string, strict: boolean][] = [
  ['minLength', 'maxLength', false],
  ['minItems', 'maxItems', false],
  ['minProperties', 'maxProperties', false],
  ['minimum', 'maximum', false],
  ['exclusiveMinimum', 'maximum', true],
  ['minimum', 'exclusiveMaximum', true],
  ['exclusiveMinimum', 'exclusiveMaximum', true],
];

/**
 * Checks the bounds of one sanitised node and lowers large upper bounds. A node whose
 * lower bound passes its upper bound admits no value: json-schema-faker would still
 * return one that breaks the schema, so it is refused here with the reason.
 */
export function applyBounds(out: Record<string, unknown>, at: string): void {
  integerStep(out);
  for (const [low, high, strict] of PAIRS) {
    const min = out[low] as number | undefined;
    const max = out[high] as number | undefined;
    if (min !== undefined && max !== undefined && (strict ? min >= max : min > max)) {
      throw new ToolInputError(`schema at ${at}: ${low} ${min} and ${high} ${max} leave no value that fits`);
    }
  }
  for (const [k, limit] of Object.entries(LOWER_LIMITS)) {
    if ((out[k] as number | undefined) !== undefined && (out[k] as number) > limit) {
      throw new ToolInputError(`${at}/${k} is above ${limit}, more than a mock response needs`);
    }
  }
  for (const [k, [lower, cap]] of Object.entries(CAPS)) {
    const ceiling = Math.max((out[lower] as number | undefined) ?? 0, cap);
    if (out[k] !== undefined && (out[k] as number) > ceiling) out[k] = ceiling;
  }
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * json-schema-faker makes `k * multipleOf`, so an integer with `multipleOf: 0.5` came out as
 * 108.5. The integers that are multiples of M/10^d are the multiples of M / gcd(M, 10^d).
 */
function integerStep(out: Record<string, unknown>): void {
  const step = out.multipleOf;
  if (out.type !== 'integer' || typeof step !== 'number' || Number.isInteger(step)) return;
  const text = String(step);
  const decimals = text.split('.')[1]?.length ?? 0;
  if (text.includes('e') || decimals > 15) return;
  const scale = 10 ** decimals;
  const numerator = Math.round(step * scale);
  out.multipleOf = numerator / gcd(numerator, scale);
}
