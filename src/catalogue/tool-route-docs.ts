import { RUNTIME_SCHEMAS } from '../run/runtime-input.js';
import { RUNTIME_PATH } from './descriptor.js';
import {
  ACCEPTED_AS_JOB,
  CACHE_CONTROL,
  ERROR_STATUSES,
  IDEMPOTENCY_KEY,
  IF_NONE_MATCH,
  NOT_MODIFIED,
  PREFER_ASYNC,
  RATELIMIT_FIELDS,
  RUN_HEADERS,
  ref,
} from './openapi-responses.js';
import type { AnswerDoc, QueryDoc, RouteDoc } from './route-doc.js';

/** The batch request's door (docs/api.md, "Batch runs"). */
export const BATCH_PATH = '/api/tools/batch/';

/**
 * The routes that run tools by toolId, declared once (see route-doc.ts): src/routes/runtime.ts
 * and src/routes/batch.ts register these declarations, and the OpenAPI document describes
 * them. Their answers are sent prebuilt (the worker's JSON), so fastify gets no serialiser.
 */
const shared = (status: number): AnswerDoc => ({ description: `Error${status}`, shared: `Error${status}` });
const errors = (statuses: readonly number[]) =>
  Object.fromEntries(statuses.map((s) => [s, shared(s)])) as Record<number, AnswerDoc>;
const runBody = { oneOf: [ref('RuntimeRequestNested'), ref('RuntimeRequestFlat')] };

/** `GET` and `POST /api/tools/run/`: any tool by toolId; the 200 is the named tool's success. */
export function runtimeRouteDocs(toolIds: readonly string[]): { get: RouteDoc; post: RouteDoc } {
  const q = (name: string, required: boolean, description: string, schema: object = { type: 'string' }) =>
    ({ name, required, description, schema }) satisfies QueryDoc;
  const answers = {
    200: {
      description: "The run succeeded: the tool's success answer",
      schema: ref('ToolRunSuccessByTool'),
      prebuilt: true,
      headers: RUN_HEADERS,
    },
    304: NOT_MODIFIED,
    ...errors(ERROR_STATUSES),
  } satisfies Record<number, AnswerDoc>;
  return {
    get: {
      method: 'GET',
      url: RUNTIME_PATH,
      operationId: 'runToolGet',
      summary: 'Run a tool by toolId (query parameters)',
      description: "a, b and c are the tool's fields in its order (docs/api.md, dedicated endpoints table).",
      tag: 'runtime',
      requestHeaders: [IF_NONE_MATCH, CACHE_CONTROL],
      query: [
        q('toolId', true, 'The tool to run', { enum: [...toolIds] }),
        q('a', false, "The tool's main input (required by every tool's runtime contract)"),
        q('b', false, 'Second input, per tool'),
        q('c', false, 'Third input, per tool'),
        q('mode', false, 'Tool mode; default the first of the tool'),
        q(
          'options',
          false,
          'The tool\'s other named fields as JSON text, e.g. {"from":"2026-01-01T00:00:00Z"}',
        ),
        q('source', false, 'Who is calling', RUNTIME_SCHEMAS.RuntimeRequestFlat.properties.source),
      ],
      answers,
    },
    post: {
      method: 'POST',
      url: RUNTIME_PATH,
      operationId: 'runToolPost',
      summary: 'Run a tool by toolId (nested or flat JSON body)',
      description: "a, b and c are the tool's fields in its order; numbers are taken as their text.",
      tag: 'runtime',
      requestHeaders: [IF_NONE_MATCH, CACHE_CONTROL, IDEMPOTENCY_KEY, PREFER_ASYNC],
      body: { description: 'A generic runtime body, nested or flat', schema: runBody },
      answers: { ...answers, 202: ACCEPTED_AS_JOB },
    },
  };
}

const BATCH_IF_NONE_MATCH = {
  ...IF_NONE_MATCH,
  description:
    "The batch request's ETag (given on a 200 whose every run succeeded with one): 304 when it is current and every run is admitted, nothing runs; a run not admitted answers with that run's error",
};

const BATCH_CACHE_CONTROL = {
  ...CACHE_CONTROL,
  description: `${CACHE_CONTROL.description}. It applies to every run of the batch request; an only-if-cached run with no stored result is answered by its own 504 TIMEOUT item`,
};

/** `POST /api/tools/batch/`: up to `maxRuns` runs in one request, each answered as it alone would be. */
export function batchRequestRouteDoc(maxRuns: number): RouteDoc {
  return {
    method: 'POST',
    url: BATCH_PATH,
    operationId: 'runBatch',
    summary: `Up to ${maxRuns} runs in one request, each charged under its own tool's policy`,
    description:
      'Each run is answered as it alone would have been, in request order, with its own runtime and rateLimit (docs/api.md, "Batch runs").',
    tag: 'runtime',
    requestHeaders: [BATCH_IF_NONE_MATCH, BATCH_CACHE_CONTROL, IDEMPOTENCY_KEY, PREFER_ASYNC],
    body: { description: 'The runs, and a source for those that do not say', schema: ref('BatchRequest') },
    answers: {
      200: {
        description:
          'Every run answered; an ETag when every run succeeded with one. RateLimit-Policy lists every limit of every run, RateLimit the fewest units left of each limit its runs reported, the fewest first',
        schema: ref('BatchAnswer'),
        prebuilt: true,
        headers: { ...RATELIMIT_FIELDS, ETag: RUN_HEADERS.ETag },
      },
      202: ACCEPTED_AS_JOB,
      304: {
        description:
          "Not Modified: If-None-Match named the batch request's ETag and every run was admitted; nothing ran",
        headers: { ...RATELIMIT_FIELDS, ETag: RUN_HEADERS.ETag, 'Cache-Status': RUN_HEADERS['Cache-Status'] },
      },
      ...errors([400, 401, 409, 413, 415, 422, 429, 503]),
    },
  };
}
