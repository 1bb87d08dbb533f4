import { JOB_STATES } from '../jobs/job-types.js';
import { SOURCES } from '../run-meta.js';
import { IDEMPOTENCY_KEY, ref } from './openapi-responses.js';
import type { AnswerDoc, RouteDoc } from './route-doc.js';

/** The jobs' door (docs/api.md, "Jobs"). */
export const JOBS_PATH = '/api/jobs/';
export const JOB_PATH = '/api/jobs/{jobId}';

const shared = (status: number): AnswerDoc => ({ description: `Error${status}`, shared: `Error${status}` });
const errors = (statuses: readonly number[]) =>
  Object.fromEntries(statuses.map((s) => [s, shared(s)])) as Record<number, AnswerDoc>;
const callbackUrl = {
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  description:
    'Where the job\'s one webhook goes when it ends (Standard Webhooks: signed, retried; docs/api.md, "Webhooks"); public http(s) addresses only',
};
const isoTime = { type: 'string', format: 'date-time' } as const;

/** The jobs' schemas: components of the OpenAPI document, and the answers' fastify serialisers. */
export function jobSchemas(maxRuns: number): Record<string, object> {
  return {
    JobRequest: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['toolId', 'input'],
          properties: {
            toolId: { type: 'string', minLength: 1, description: 'The tool to run' },
            input: { type: 'object', description: 'As on POST /api/tools/run/' },
            source: { enum: [...SOURCES] },
            callbackUrl,
          },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['runs'],
          properties: {
            runs: {
              type: 'array',
              minItems: 1,
              maxItems: maxRuns,
              description: 'Generic runtime bodies, answered in this order in one answer',
              items: { oneOf: [ref('RuntimeRequestNested'), ref('RuntimeRequestFlat')] },
            },
            source: { enum: [...SOURCES], description: 'For runs that do not say' },
            callbackUrl,
          },
        },
      ],
    },
    Job: JOB_SCHEMA,
    JobList: {
      type: 'object',
      required: ['jobs', 'next'],
      properties: {
        jobs: { type: 'array', items: ref('Job') },
        next: { type: ['integer', 'null'], description: 'The `offset` of the next page; null: no more' },
      },
    },
  };
}

export const JOB_SCHEMA = {
  type: 'object',
  required: ['id', 'state', 'kind', 'createdAt', 'attempts'],
  properties: {
    id: { type: 'string', description: 'The job id (`job_` and 24 characters)' },
    state: { enum: [...JOB_STATES] },
    kind: { enum: ['run', 'batch'] },
    task: {
      const: true,
      description: 'Made by an MCP tools/call as a task: its answer body is the call result',
    },
    toolId: { type: 'string' },
    runs: { type: 'integer', description: 'A batch job: how many runs' },
    createdAt: isoTime,
    startedAt: isoTime,
    finishedAt: isoTime,
    expiresAt: { ...isoTime, description: 'When the finished job and its answer are removed' },
    attempts: {
      type: 'integer',
      description: 'Runs of it started: more than 1 only when a process died running it',
    },
    answer: {
      type: 'object',
      required: ['status', 'body'],
      description:
        'Once it succeeded or failed: the status and body the synchronous call would have answered (a ToolRunSuccess, a BatchAnswer or a ToolRunError)',
      properties: { status: { type: 'integer' }, body: { type: 'object', additionalProperties: true } },
    },
    webhook: {
      type: 'object',
      required: ['url', 'state', 'attempts'],
      properties: {
        url: { type: 'string' },
        state: { enum: ['pending', 'delivered', 'failed'] },
        attempts: {
          type: 'array',
          items: {
            type: 'object',
            required: ['at', 'durationMs'],
            properties: {
              at: isoTime,
              status: { type: 'integer', description: "The receiver's status" },
              error: { type: 'string', description: 'Why no answer came' },
              failure: { enum: ['timeout', 'refused'] },
              durationMs: { type: 'integer' },
            },
          },
        },
      },
    },
  },
} as const;

const jobId = [{ name: 'jobId', description: 'The id POST /api/jobs/ answered' }];
const job = (description: string): AnswerDoc => ({ description, schema: ref('Job') });

/** The jobs' routes, declared once: src/routes/jobs.ts registers them, the OpenAPI document describes them. */
export function jobRouteDocs(maxRuns: number) {
  return {
    submit: {
      method: 'POST',
      url: JOBS_PATH,
      operationId: 'submitJob',
      summary: `A run, or up to ${maxRuns} runs, as a job: answered at once, run in the background`,
      description:
        'The generic runtime body (`toolId`, `input`) or a batch body (`runs`), plus an optional `callbackUrl`: answered 202 with the job and `Location`; the job runs under the caller\'s limits, and GET on its Location gives its state and, once finished, the answer the synchronous call would have given (docs/api.md, "Jobs"). Needs the hub\'s Redis.',
      tag: 'jobs',
      requestHeaders: [IDEMPOTENCY_KEY],
      body: { description: 'What to run, and where to tell when it ends', schema: ref('JobRequest') },
      answers: {
        202: {
          description: 'Accepted: the job, queued',
          schema: ref('Job'),
          prebuilt: true,
          headers: { Location: { description: 'The job: /api/jobs/<id>', schema: { type: 'string' } } },
        },
        ...errors([400, 401, 404, 409, 413, 415, 422, 429, 503]),
      },
    },
    list: {
      method: 'GET',
      url: JOBS_PATH,
      operationId: 'listJobs',
      summary: "The caller's jobs, newest first",
      description:
        'Only the jobs of the caller (its API key; its address with keys off), without their answers.',
      tag: 'jobs',
      query: [
        {
          name: 'limit',
          required: false,
          description: 'At most this many (1–100, default 20)',
          schema: { type: 'integer', minimum: 1, maximum: 100 },
        },
        {
          name: 'offset',
          required: false,
          description: "From this one (the previous page's `next`)",
          schema: { type: 'integer', minimum: 0 },
        },
      ],
      answers: {
        200: { description: 'A page of jobs', schema: ref('JobList'), prebuilt: true },
        ...errors([400, 401, 429, 503]),
      },
    },
    get: {
      method: 'GET',
      url: JOB_PATH,
      operationId: 'getJob',
      summary: 'A job: its state, its answer once finished, its webhook attempts',
      description: "Another caller's job, or one past its expiry, is 404.",
      tag: 'jobs',
      params: jobId,
      answers: { 200: { ...job('The job'), prebuilt: true }, ...errors([401, 404, 429, 503]) },
    },
    cancel: {
      method: 'DELETE',
      url: JOB_PATH,
      operationId: 'cancelJob',
      summary: 'Cancels a queued or running job',
      description:
        "A queued job will not run; a running one's answer is dropped; neither sends its webhook. A finished job is 409; cancelling twice answers the cancelled job again.",
      tag: 'jobs',
      params: jobId,
      answers: {
        200: { ...job('The job, cancelled'), prebuilt: true },
        ...errors([401, 404, 409, 429, 503]),
      },
    },
  } satisfies Record<string, RouteDoc>;
}
