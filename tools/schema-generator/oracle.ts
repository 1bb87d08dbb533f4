/**
 * Test helper: the natural oracle for a generated schema is a real validator. ajv in
 * strict mode (unknown keywords are errors) with ajv-formats, as the hub uses.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default export is the module object's `default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;

// ownProperties: otherwise a property named like an inherited one (toString) is read off the prototype.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, ownProperties: true });
addFormats(ajv);

export function compile(schema: Record<string, unknown>): ValidateFunction {
  return ajv.compile(schema);
}

/** Every object schema lists all its properties as required and closes additionalProperties. */
export function strictViolations(schema: unknown, path = '#'): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  if (node.type === 'object') {
    const keys = Object.keys((node.properties as object | undefined) ?? {});
    const required = (node.required as string[] | undefined) ?? [];
    if (node.additionalProperties !== false) found.push(`${path}: additionalProperties is not false`);
    if (keys.length !== required.length || keys.some((k) => !required.includes(k))) {
      found.push(`${path}: required does not list every property`);
    }
  }
  for (const [key, child] of Object.entries(node)) {
    if (Array.isArray(child)) {
      for (const [i, c] of child.entries()) found.push(...strictViolations(c, `${path}/${key}/${i}`));
    } else if (typeof child === 'object') found.push(...strictViolations(child, `${path}/${key}`));
  }
  return found;
}

type Node = Record<string, unknown>;

/**
 * A strict schema requires keys the sample sometimes lacks (they become nullable):
 * the document a strict-mode model would produce carries them as null. This returns
 * the sample in that form, so the oracle can check it against the strict schema.
 */
export function fillMissing(value: unknown, schema: Node): unknown {
  const alternatives = schema.anyOf as Node[] | undefined;
  if (alternatives) {
    const kind = Array.isArray(value)
      ? 'array'
      : value !== null && typeof value === 'object'
        ? 'object'
        : null;
    const match = alternatives.find((alt) => alt.type === kind);
    return match ? fillMissing(value, match) : value;
  }
  if (Array.isArray(value) && schema.items)
    return value.map((item) => fillMissing(item, schema.items as Node));
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    const source = value as Node;
    const out: Node = { ...source };
    for (const [key, child] of Object.entries(schema.properties as Record<string, Node>)) {
      const filled = Object.hasOwn(source, key) ? fillMissing(source[key], child) : null;
      Object.defineProperty(out, key, {
        value: filled,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
