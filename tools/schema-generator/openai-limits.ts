/**
 * Size limits OpenAI Structured Outputs puts on a strict schema (platform docs, "Supported
 * schemas"): at most 5000 object properties in total, at most 10 levels of object nesting, and
 * at most 120,000 characters of property names (with enum and const values, which this tool
 * never emits). A schema past them is refused by the API, so strict mode says so up front.
 */
import type { Schema } from './emit.js';

export const MAX_PROPERTIES = 5000;
export const MAX_OBJECT_DEPTH = 10;
export const MAX_NAME_CHARS = 120_000;

interface Tally {
  properties: number;
  nameChars: number;
  depth: number;
}

function walk(node: unknown, depth: number, tally: Tally): void {
  if (node === null || typeof node !== 'object') return;
  const schema = node as Schema;
  const properties = schema.properties as Record<string, unknown> | undefined;
  const isObject = schema.type === 'object' && properties !== undefined;
  const level = isObject ? depth + 1 : depth;
  if (level > tally.depth) tally.depth = level;
  if (isObject) {
    for (const key of Object.keys(properties)) {
      tally.properties += 1;
      tally.nameChars += key.length;
      walk(properties[key], level, tally);
    }
  }
  walk(schema.items, level, tally);
  for (const alternative of (schema.anyOf as unknown[] | undefined) ?? []) walk(alternative, level, tally);
}

/** One warning per limit the schema passes. */
export function openAiLimitWarnings(schema: Schema): string[] {
  const tally: Tally = { properties: 0, nameChars: 0, depth: 0 };
  walk(schema, 0, tally);
  const warnings: string[] = [];
  if (tally.properties > MAX_PROPERTIES) {
    warnings.push(
      `The schema has ${tally.properties} object properties; OpenAI Structured Outputs allows at most ${MAX_PROPERTIES} in total.`,
    );
  }
  if (tally.depth > MAX_OBJECT_DEPTH) {
    warnings.push(
      `Objects nest ${tally.depth} levels deep; OpenAI Structured Outputs allows at most ${MAX_OBJECT_DEPTH} levels of nesting.`,
    );
  }
  if (tally.nameChars > MAX_NAME_CHARS) {
    warnings.push(
      `Property names total ${tally.nameChars} characters; OpenAI Structured Outputs allows at most ${MAX_NAME_CHARS}.`,
    );
  }
  return warnings;
}
