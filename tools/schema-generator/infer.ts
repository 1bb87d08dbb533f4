/**
 * Folds JSON values into a summary of what was seen at each position (types, string
 * formats, object keys with how often they were present and non-null, merged array
 * items). Every array element and every sample of merge mode folds into the same
 * summary, which is what "merging" means here.
 *
 * Hand-written rather than genson-js (not installed, and it knows neither string
 * formats nor presence counts for required/strict output).
 */
import { ToolInputError } from '#tool-kit';
import { detectFormat, type StringFormat } from './formats.js';

/** Nesting levels allowed, the root value being level 1. */
export const MAX_DEPTH = 64;
export const MAX_NODES = 200_000;

export interface PropertySummary {
  summary: Summary;
  /** Objects (at this position) that had the key. */
  present: number;
  /** ... with a non-null value. */
  nonNull: number;
}

export interface Summary {
  nulls: number;
  booleans: number;
  integers: number;
  /** Numbers with a fractional part. */
  numbers: number;
  strings: number;
  /** Common format of every string seen; null once two differ or one has none. */
  format: StringFormat | null | undefined;
  objects: number;
  properties: Map<string, PropertySummary>;
  arrays: number;
  items: Summary | null;
}

export function emptySummary(): Summary {
  return {
    nulls: 0,
    booleans: 0,
    integers: 0,
    numbers: 0,
    strings: 0,
    format: undefined,
    objects: 0,
    properties: new Map(),
    arrays: 0,
    items: null,
  };
}

/** Shared budget of one run: values visited and deepest nesting. */
export interface Budget {
  nodes: number;
  maxDepth: number;
}

export function fold(target: Summary, value: unknown, budget: Budget, depth = 0): void {
  if (++budget.nodes > MAX_NODES) {
    throw new ToolInputError(`sample is too large: more than ${MAX_NODES} JSON values`);
  }
  if (depth >= MAX_DEPTH) throw new ToolInputError(`sample nests deeper than ${MAX_DEPTH} levels`);
  if (depth > budget.maxDepth) budget.maxDepth = depth;

  if (value === null) target.nulls++;
  else if (typeof value === 'boolean') target.booleans++;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ToolInputError('sample contains a number JSON cannot represent');
    if (Number.isInteger(value)) target.integers++;
    else target.numbers++;
  } else if (typeof value === 'string') {
    target.strings++;
    const format = detectFormat(value);
    target.format = target.format === undefined || target.format === format ? format : null;
  } else if (Array.isArray(value)) {
    target.arrays++;
    target.items ??= emptySummary();
    for (const item of value) fold(target.items, item, budget, depth + 1);
  } else if (typeof value === 'object') {
    target.objects++;
    // for...in rather than Object.entries: no copy of a huge object before the budget check.
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const child = (value as Record<string, unknown>)[key];
      let property = target.properties.get(key);
      if (!property) {
        property = { summary: emptySummary(), present: 0, nonNull: 0 };
        target.properties.set(key, property);
      }
      property.present++;
      if (child !== null) property.nonNull++;
      fold(property.summary, child, budget, depth + 1);
    }
  } else {
    throw new ToolInputError(`sample contains a ${typeof value}, which is not a JSON value`);
  }
}
