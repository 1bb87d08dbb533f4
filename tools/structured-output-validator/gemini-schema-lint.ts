/**
 * Gemini function declarations' `parameters`: an OpenAPI 3.0 Schema subset, not JSON Schema,
 * so it gets its own walk rather than the strict-shape helpers. The input is depth-checked
 * (MAX_SCHEMA_DEPTH) before, so the recursion stays shallow.
 */
import { type IssueCollector, quoteName } from './issue-list.js';
import { isPlainObject, pointerSegment } from './json-input.js';
import { GEMINI_KEYWORDS, GEMINI_PARAMETER_NAME, GEMINI_TYPES } from './provider-rules.js';

/**
 * Gemini `parameters`: an OpenAPI 3.0 Schema subset. Unknown keywords, type arrays, $ref,
 * non-string enums and undeclared required names are reported.
 */
export function lintGeminiSchema(root: unknown, base: string, out: IssueCollector): void {
  if (!isPlainObject(root)) {
    out.add(base, 'type', 'parameters must be a Schema object with type OBJECT');
    return;
  }
  if (typeof root.type !== 'string' || root.type.toUpperCase() !== 'OBJECT') {
    out.add(`${base}/type`, 'type', 'parameters must have type OBJECT (or "object")');
  }
  if (isPlainObject(root.properties)) {
    for (const key of Object.keys(root.properties)) {
      if (!GEMINI_PARAMETER_NAME.test(key)) {
        out.add(
          `${base}/properties/${pointerSegment(key)}`,
          'propertyName',
          `parameter name ${quoteName(key)} must start with a letter or _ and hold only letters, digits and _ (at most 64)`,
        );
      }
    }
  }
  const visit = (node: unknown, p: string): void => {
    if (!isPlainObject(node)) {
      out.add(p, 'type', 'a Schema must be an object');
      return;
    }
    for (const key of Object.keys(node)) {
      if (!(GEMINI_KEYWORDS as readonly string[]).includes(key)) {
        out.add(
          `${p}/${pointerSegment(key)}`,
          key,
          `${quoteName(key)} is not a field of Gemini's Schema (OpenAPI 3.0 subset)`,
        );
      }
    }
    if ('type' in node) {
      if (Array.isArray(node.type)) {
        out.add(`${p}/type`, 'type', 'type must be one type, not a list: use nullable: true for null');
      } else if (
        typeof node.type !== 'string' ||
        !(GEMINI_TYPES as readonly string[]).includes(node.type.toUpperCase())
      ) {
        out.add(`${p}/type`, 'type', `type must be one of ${GEMINI_TYPES.join(', ')}`);
      }
    }
    if ('nullable' in node && typeof node.nullable !== 'boolean') {
      out.add(`${p}/nullable`, 'nullable', 'nullable must be a boolean');
    }
    if ('enum' in node) {
      if (!Array.isArray(node.enum) || node.enum.some((v) => typeof v !== 'string')) {
        out.add(`${p}/enum`, 'enum', 'enum must be a list of strings');
      }
    }
    if ('required' in node) {
      const props = isPlainObject(node.properties) ? node.properties : {};
      if (!Array.isArray(node.required))
        out.add(`${p}/required`, 'required', 'required must be a list of names');
      else {
        for (const [i, name] of node.required.entries()) {
          if (typeof name !== 'string' || !Object.hasOwn(props, name)) {
            out.add(
              `${p}/required/${i}`,
              'required',
              `required names ${quoteName(String(name))}, which properties does not declare`,
            );
          }
        }
      }
    }
    if ('items' in node && !isPlainObject(node.items)) {
      out.add(`${p}/items`, 'items', 'items must be one Schema (tuples are not supported)');
    }
    if (isPlainObject(node.properties)) {
      for (const [k, v] of Object.entries(node.properties)) visit(v, `${p}/properties/${pointerSegment(k)}`);
    } else if ('properties' in node)
      out.add(`${p}/properties`, 'properties', 'properties must be a map of Schemas');
    if (isPlainObject(node.items)) visit(node.items, `${p}/items`);
    if (Array.isArray(node.anyOf)) for (const [i, v] of node.anyOf.entries()) visit(v, `${p}/anyOf/${i}`);
  };
  visit(root, base);
}
