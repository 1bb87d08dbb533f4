import { createHash } from 'node:crypto';
import { faker } from '@faker-js/faker/locale/en';
import { generateSync } from 'json-schema-faker';
import { ToolInputError } from '#tool-kit';
import { checkExpansion } from './ref-budget.js';
import { sanitizeSchema } from './schema-guard.js';

/** Values (of any kind, containers included) one mock may hold. */
export const MAX_VALUES = 5000;
/** Characters of all generated strings together. */
export const MAX_STRING_CHARS = 100_000;

// Faker's date helpers count from "now"; a fixed reference keeps output stable over time.
faker.setDefaultRefDate('2025-01-01T00:00:00.000Z');

class BudgetExceeded extends Error {}

/** A 32-bit seed from the SHA-256 of the text: the same input always gives the same data. */
export function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** The schema as the generator reads it, refused early when it is out of bounds. */
export function prepareSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const safe = sanitizeSchema(schema);
  checkExpansion(safe);
  return safe;
}

export interface Generated {
  value: unknown;
  /** Values made, containers included: what the attempt cost. */
  values: number;
}

/**
 * Generates mock data from a prepared schema with json-schema-faker, realistic values coming
 * from @faker-js/faker. Both are seeded per call and the generation is synchronous, so no
 * other call can touch the shared faker instance in between.
 */
export function generateSafe(safe: Record<string, unknown>, seed: number): Generated {
  let values = 0;
  let chars = 0;
  faker.seed(seed);
  let value: unknown;
  try {
    value = generateSync(safe, {
      seed,
      extensions: { faker },
      alwaysFakeOptionals: true,
      maxDepth: 12,
      refDepthMax: 3,
      maxDefaultItems: 3,
      // Called for every value as it is made: the budget stops a blow-up early.
      outputTransform: (made) => {
        values += 1;
        if (typeof made === 'string') chars += made.length;
        if (values > MAX_VALUES || chars > MAX_STRING_CHARS) throw new BudgetExceeded();
        return made;
      },
    });
  } catch (err) {
    if (err instanceof BudgetExceeded) {
      throw new ToolInputError(
        `the schema would generate more than ${MAX_VALUES} values or ${MAX_STRING_CHARS} characters; lower minItems, minLength or nesting`,
      );
    }
    if (err instanceof ToolInputError) throw err;
    throw new ToolInputError(`cannot generate data from this schema: ${(err as Error).message}`);
  }
  // The generator may give up (e.g. an impossible pattern) and return undefined somewhere.
  if (value === undefined)
    throw new ToolInputError('cannot generate data from this schema: no value fits it');
  return { value: JSON.parse(JSON.stringify(value)) as unknown, values };
}
