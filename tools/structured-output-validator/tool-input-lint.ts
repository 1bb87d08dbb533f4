/**
 * The one rule every JSON Schema tool input shares, whatever the provider: Anthropic
 * input_schema, MCP inputSchema/outputSchema and Gemini parametersJsonSchema.
 */
import type { IssueCollector } from './issue-list.js';
import { isPlainObject } from './json-input.js';

/** A JSON Schema tool input: the root must be an object schema (Anthropic, MCP, Gemini parametersJsonSchema). */
export function lintObjectRoot(root: unknown, base: string, out: IssueCollector, what: string): void {
  if (!isPlainObject(root) || root.type !== 'object') {
    out.add(
      isPlainObject(root) ? `${base}/type` : base,
      'type',
      `${what} must be a JSON Schema with type "object"`,
    );
  }
}
