import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isObject } from '../shared/is-object.js';
import { boundMessage, cut } from '../shared/quote.js';

/** Issues named in a message; the rest are counted. */
const MAX_ISSUES = 3;

interface Issue {
  path: (string | number)[];
  message: string;
}

/**
 * The error of a message whose params fail the SDK's schema of its method, as docs/api.md
 * lists malformed messages: `-32602` (Invalid params) with a short message naming the
 * fields (`Invalid params for initialize: params.protocolVersion: expected string, received
 * number`). The SDK throws a plain Error holding zod's issue dump there (answered `-32603`,
 * Internal error) or, for `tools/call`, `-32602` with the dump. Null for any other error
 * (a handler's own, an internal one): it is answered as it was thrown.
 */
export function paramsError(method: string, err: unknown): ProtocolError | null {
  if (!(err instanceof Error)) return null;
  const code = (err as { code?: unknown }).code;
  let dump = err.message;
  if (code === ProtocolErrorCode.InvalidParams) {
    const prefix = `Invalid ${method} request: `;
    if (!dump.startsWith(prefix)) return null;
    dump = dump.slice(prefix.length);
  } else if (code !== undefined) {
    return null;
  }
  const issues = schemaIssues(dump);
  if (!issues) return null;
  const named = issues
    .slice(0, MAX_ISSUES)
    .map(
      (issue) =>
        `${cut(issue.path.join('.') || 'params')}: ${cut(issue.message.replace(/^Invalid input: /, ''))}`,
    );
  if (issues.length > MAX_ISSUES) named.push(`and ${issues.length - MAX_ISSUES} more`);
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    boundMessage(`Invalid params for ${cut(method)}: ${named.join('; ')}`),
  );
}

/** zod's issues from the text of its error (a JSON array of {path, message, …}), or null. */
function schemaIssues(text: string): Issue[] | null {
  if (!text.startsWith('[')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length === 0) return null;
  for (const issue of value) {
    if (!isObject(issue) || !Array.isArray(issue.path) || typeof issue.message !== 'string') return null;
  }
  return value as Issue[];
}
