import { PIPELINE_MAX_STEPS } from '../pipelines/check.js';
import { SOURCES } from '../run-meta.js';
import { CACHE_CONTROL, ERROR_STATUSES, IDEMPOTENCY_KEY, RUN_HEADERS, ref } from './openapi-responses.js';
import type { AnswerDoc, RouteDoc } from './route-doc.js';

/** Where an ad hoc pipeline runs (docs/api.md, "Pipelines"); a named one is `/api/pipelines/<id>/`. */
export const PIPELINES_RUN_PATH = '/api/pipelines/run';

const shared = (status: number): AnswerDoc => ({ description: `Error${status}`, shared: `Error${status}` });

/** The body of POST /api/pipelines/run: the pipeline's input and its steps. */
export const PIPELINE_REQUEST_SCHEMA = {
  type: 'object',
  required: ['steps'],
  additionalProperties: false,
  properties: {
    input: {
      type: 'object',
      description: 'The pipeline\'s input: what `{"$from": "/input/<name>"}` reads',
    },
    steps: {
      type: 'array',
      minItems: 1,
      maxItems: PIPELINE_MAX_STEPS,
      description: `The steps, run in order (at most ${PIPELINE_MAX_STEPS})`,
      items: {
        type: 'object',
        required: ['toolId', 'input'],
        additionalProperties: false,
        properties: {
          toolId: { type: 'string' },
          mode: { type: 'string', description: "One of the tool's modes; default its first" },
          input: {
            type: 'object',
            description:
              'The tool\'s named fields: each a literal, or {"$from": "<JSON Pointer>"} into {"input": …, "steps": [{"result": …}, …]}',
          },
        },
      },
    },
    source: { enum: [...SOURCES], description: 'Who is calling; default api' },
  },
} as const;

/** `POST /api/pipelines/run`: an ad hoc pipeline, checked, then run step by step. */
export const PIPELINE_RUN_ROUTE_DOC: RouteDoc = {
  method: 'POST',
  url: PIPELINES_RUN_PATH,
  operationId: 'runPipeline',
  summary: 'Run tools in order, each step fed from the input and earlier results (an ad hoc pipeline)',
  description:
    'The definition is checked before anything runs: every pointer resolves against the declared output schema of the step it names and its type fits the field it feeds, or 400 INVALID_INPUT names the step and the pointer. Each step is a run under the caller\'s limits; the answer is the last step\'s result, with runtime.pipeline and rateLimit.runs (docs/api.md, "Pipelines").',
  tag: 'runtime',
  requestHeaders: [CACHE_CONTROL, IDEMPOTENCY_KEY],
  body: { description: 'The pipeline and its input', schema: PIPELINE_REQUEST_SCHEMA },
  answers: {
    200: {
      description:
        "Every step succeeded: the last step's result; runtime.pipeline lists each step's run, rateLimit.runs the runs spent",
      schema: ref('PipelineRunSuccess'),
      prebuilt: true,
      headers: { ...RUN_HEADERS },
    },
    ...Object.fromEntries(ERROR_STATUSES.map((s) => [s, shared(s)])),
  },
};
