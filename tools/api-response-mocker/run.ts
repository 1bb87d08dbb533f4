import { parseJsonField, type ToolInput, ToolInputError } from '#tool-kit';
import { lossyNumber } from '../_shared/json-exact.js';
import { isJsonSchema } from './detect-schema.js';
import { seedOf } from './generate.js';
import { mockFromSchema } from './mock-body.js';
import { parseRoute } from './route.js';
import { buildSnippets, type MockSpec } from './snippets.js';
import { TARGETS, type Target } from './tool.js';

export const MAX_EXAMPLE_DEPTH = 64;
/** Statuses whose responses carry no body (RFC 9110 §6.4.1, §15.3.5, §15.3.6, §15.4.5). */
const NO_BODY = new Set([204, 205, 304]);

/**
 * Input as the schema in tool.ts passed it: a response present (text within its length), a
 * route string, a status from MIN_STATUS to MAX_STATUS; the mode is `all` or a target.
 */
export default async function run(input: ToolInput, mode: string) {
  // The schema refuses no response, but not one of blanks.
  if (typeof input.response === 'string' && input.response.trim() === '')
    throw new ToolInputError('response is required: a JSON example or a JSON Schema');
  const value = parseJsonField(input.response, 'response');
  const route = parseRoute(input.route as string | undefined);
  const status = checkStatus(input.status as number);
  const notes: string[] = [];
  const lossy = typeof input.response === 'string' ? lossyNumber(input.response) : undefined;
  // JSON numbers become doubles here and in every snippet: say so rather than change data silently.
  if (lossy !== undefined) {
    notes.push(
      `The number ${lossy.slice(0, 40)} has no exact JavaScript form; it reads as ${JSON.stringify(Number(lossy))}. Send such values as strings.`,
    );
  }

  let body: unknown;
  let seed: number | undefined;
  const source = isJsonSchema(value) ? 'schema' : 'example';
  if (source === 'schema') {
    // The seed ignores status and target, so every target shows the same data.
    seed = seedOf(`${route.method} ${route.path}\n${JSON.stringify(value)}`);
    const mock = mockFromSchema(value as Record<string, unknown>, seed);
    body = mock.body;
    notes.push(...mock.notes);
  } else {
    checkDepth(value, 0);
    body = value;
    notes.push('The response is your example, returned as given: no data was synthesised.');
  }

  const hasBody = route.method !== 'HEAD' && !NO_BODY.has(status);
  if (!hasBody)
    notes.push(`A ${route.method === 'HEAD' ? 'HEAD response' : `${status} response`} has no body.`);
  const headers: Record<string, string> = NO_BODY.has(status) ? {} : { 'Content-Type': 'application/json' };
  const spec: MockSpec = { route, status, headers, hasBody, body: hasBody ? body : null };
  const targets: readonly Target[] = mode === 'all' ? TARGETS : [mode as Target];
  return {
    response: { status, headers, body: spec.body },
    route: { method: route.method, path: route.path },
    source,
    ...(seed === undefined ? {} : { seed }),
    snippets: buildSnippets(spec, targets),
    notes,
  };
}

function checkStatus(status: number): number {
  // fetch's Response and MSW refuse 1xx, and a 1xx is never the final answer to a request.
  if (status < 200)
    throw new ToolInputError(`status ${status} is informational (1xx) and cannot be mocked as a response`);
  return status;
}

/** Examples are embedded by recursive writers: bound the nesting. */
function checkDepth(value: unknown, depth: number): void {
  if (typeof value !== 'object' || value === null) return;
  if (depth >= MAX_EXAMPLE_DEPTH)
    throw new ToolInputError(`response is nested deeper than ${MAX_EXAMPLE_DEPTH} levels`);
  for (const item of Object.values(value)) checkDepth(item, depth + 1);
}
