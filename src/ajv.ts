import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { once } from './shared/once.js';

/**
 * Ajv for the hub's own schemas (environment, policy and keys files, tool definitions, request
 * bodies, the built-in tools' inputs). By default Ajv checks every schema against the JSON Schema
 * meta-schema, compiling that meta-schema once per instance: 50-200 ms of each boot spent on
 * schemas that only change with the code. `src/ajv.test.ts` makes that check once, in the suite;
 * schemas from outside the code (TOOL_PACKAGES, EXTRA_TOOL_DIRS) still get it at boot (`metaCheck` below).
 */
export function ownAjv(options: Options = {}): Ajv {
  return new Ajv({ strict: false, ...options, validateSchema: false });
}

/** A validator compiled on first use: a file this instance never reads costs nothing at boot. */
export function lazyValidator<T>(schema: object, options: Options = {}): () => ValidateFunction<T> {
  return once(() => ownAjv(options).compile<T>(schema));
}

let checker: Ajv | undefined;

/** Problems of a schema against the meta-schema, or null when it is valid. */
export function metaCheck(schema: unknown): string | null {
  checker ??= new Ajv({ strict: false, allErrors: true });
  if (checker.validateSchema(schema as object)) return null;
  return (checker.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}
