import type { Analyse } from './contradictions.js';
import { isObject, quote } from './kinds.js';

const pointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Arrays are ruled out when an item `minItems` needs admits no value, when `uniqueItems`
 * needs more distinct items than the item schema allows (`enum: ["a"]` and `minItems: 10`),
 * or when `contains` admits nothing. Tuples (`prefixItems`, draft-07 `items` arrays) are
 * checked item by item; uniqueness across a tuple is not reasoned about.
 */
export function arrayProblem(
  node: Record<string, unknown>,
  at: string,
  analyse: Analyse,
): string | undefined {
  const minItems = typeof node.minItems === 'number' ? node.minItems : 0;
  const draft07Tuple = Array.isArray(node.items);
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : draft07Tuple
      ? (node.items as unknown[])
      : [];
  const tupleKey = Array.isArray(node.prefixItems) ? 'prefixItems' : 'items';
  const restKey = draft07Tuple ? 'additionalItems' : 'items';
  for (let i = 0; i < Math.min(minItems, tuple.length); i++) {
    const item = analyse(tuple[i], `${at}/${tupleKey}/${i}`);
    if (item.kinds.size === 0)
      return `schema at ${at}: minItems ${minItems} needs item ${i}, but ${item.why[0]}`;
  }
  const rest = node[restKey];
  if (minItems > tuple.length && rest !== undefined) {
    const item = analyse(rest, `${at}/${restKey}`);
    if (item.kinds.size === 0) return `schema at ${at}: minItems ${minItems} needs items, but ${item.why[0]}`;
    if (node.uniqueItems === true && tuple.length === 0 && item.count < minItems) {
      const allowed = `${item.count} distinct value${item.count === 1 ? '' : 's'}`;
      return `schema at ${at}: minItems ${minItems} with uniqueItems needs ${minItems} different items, but ${at}/${restKey} allows only ${allowed}`;
    }
  }
  if (node.contains === undefined || node.minContains === 0) return undefined;
  const wanted = analyse(node.contains, `${at}/contains`);
  if (wanted.kinds.size === 0) return `schema at ${at}/contains: no item can fit it (${wanted.why[0]})`;
  return node.maxItems === 0 ? `schema at ${at}: contains needs an item, but maxItems is 0` : undefined;
}

/**
 * Objects are ruled out when a required property admits no value (`properties: {a: false}`
 * with `required: ["a"]`, or `additionalProperties: false` for a required name it does not
 * list), or when `required` lists more names than `maxProperties` allows.
 */
export function objectProblem(
  node: Record<string, unknown>,
  at: string,
  analyse: Analyse,
): string | undefined {
  const required = Array.isArray(node.required) ? [...new Set(node.required as string[])] : [];
  const props = isObject(node.properties) ? node.properties : {};
  // A patternProperties entry may give a property its schema instead: not reasoned about.
  const patterned = isObject(node.patternProperties) && Object.keys(node.patternProperties).length > 0;
  for (const name of required) {
    const own = Object.hasOwn(props, name);
    if (!own && (patterned || node.additionalProperties === undefined)) continue;
    const where = own ? `${at}/properties/${pointer(name)}` : `${at}/additionalProperties`;
    const value = analyse(own ? props[name] : node.additionalProperties, where);
    if (value.kinds.size === 0) {
      return `schema at ${at}: required property ${quote(name)} admits no value (${value.why[0]})`;
    }
  }
  if (typeof node.maxProperties === 'number' && required.length > node.maxProperties)
    return `schema at ${at}: required lists ${required.length} properties, but maxProperties is ${node.maxProperties}`;
  return undefined;
}
