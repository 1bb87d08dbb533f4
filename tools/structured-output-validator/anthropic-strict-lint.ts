/**
 * Anthropic strict tool use. The walk recurses; the input is depth-checked (MAX_SCHEMA_DEPTH)
 * before, so the stack stays shallow. Recursion through $ref is found by recursive-ref.ts.
 */
import { type IssueCollector, quoteName } from './issue-list.js';
import { isPlainObject } from './json-input.js';
import { ANTHROPIC_FORMATS, ANTHROPIC_STRICT_UNSUPPORTED } from './provider-rules.js';
import { findRecursiveRef } from './recursive-ref.js';
import { children, definitions, isObjectSchema } from './strict-shape.js';

/**
 * Anthropic strict tool use (`strict: true`): the structured-outputs subset. Objects closed
 * with additionalProperties: false, no numeric/length constraints, minItems only 0 or 1,
 * listed formats only, no recursive schemas.
 */
export function lintAnthropicStrict(root: unknown, base: string, out: IssueCollector): void {
  const visit = (node: unknown, p: string): void => {
    if (!isPlainObject(node)) return;
    for (const kw of ANTHROPIC_STRICT_UNSUPPORTED) {
      if (kw in node) out.add(`${p}/${kw}`, kw, `${kw} is not supported with strict: true`);
    }
    if ('minItems' in node && node.minItems !== 0 && node.minItems !== 1) {
      out.add(`${p}/minItems`, 'minItems', 'with strict: true, minItems may only be 0 or 1');
    }
    if (isObjectSchema(node) && node.additionalProperties !== false) {
      const at = 'additionalProperties' in node ? `${p}/additionalProperties` : p;
      out.add(
        at,
        'additionalProperties',
        'with strict: true, every object must set additionalProperties: false',
      );
    }
    if (typeof node.format === 'string' && !(ANTHROPIC_FORMATS as readonly string[]).includes(node.format)) {
      out.add(
        `${p}/format`,
        'format',
        `format ${quoteName(node.format)} is not supported; supported: ${ANTHROPIC_FORMATS.join(', ')}`,
      );
    }
    for (const [child, cp] of children(node, p)) visit(child, cp);
    for (const kw of ['allOf', 'oneOf']) {
      const list = node[kw];
      if (Array.isArray(list)) for (const [i, v] of list.entries()) visit(v, `${p}/${kw}/${i}`);
    }
    for (const [child, cp] of definitions(node, p)) visit(child, cp);
  };
  visit(root, base);
  const cycle = findRecursiveRef(root, base);
  if (cycle) out.add(cycle, '$ref', 'recursive schemas are not supported with strict: true');
}
