import { BATCH_PATH } from '../routes/batch.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The batch endpoint's request and answer schemas (components of the OpenAPI document). */
export function batchSchemas(maxRuns: number): Record<string, unknown> {
  return {
    BatchRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['runs'],
      properties: {
        runs: {
          type: 'array',
          minItems: 1,
          maxItems: maxRuns,
          description: 'Generic runtime bodies (nested or flat), answered in this order',
          items: { oneOf: [ref('RuntimeRequestNested'), ref('RuntimeRequestFlat')] },
        },
        source: { enum: ['web', 'api', 'mcp', 'direct_framework'], description: 'For runs that do not say' },
      },
    },
    BatchAnswer: {
      type: 'object',
      required: ['ok', 'results'],
      properties: {
        ok: { const: true },
        results: {
          type: 'array',
          description: 'Each run as it alone would have answered, with its own runtime and rateLimit',
          items: {
            oneOf: [
              { allOf: [ref('ToolRunSuccess'), { properties: { rateLimit: ref('RateLimit') } }] },
              ref('ToolRunError'),
            ],
          },
        },
      },
    },
  };
}

/** `POST /api/tools/batch/`: up to `maxRuns` runs in one request. */
export function batchPath(maxRuns: number): Record<string, unknown> {
  return {
    [BATCH_PATH]: {
      post: {
        tags: ['runtime'],
        operationId: 'runBatch',
        summary: `Up to ${maxRuns} runs in one request, each charged under its own tool's policy`,
        description:
          'Each run is answered as it alone would have been, in request order, with its own runtime and rateLimit (docs/api.md, "Batch runs").',
        requestBody: { required: true, content: { 'application/json': { schema: ref('BatchRequest') } } },
        responses: {
          200: {
            description: 'Every run answered',
            content: { 'application/json': { schema: ref('BatchAnswer') } },
          },
          400: { $ref: '#/components/responses/Error400' },
          401: { $ref: '#/components/responses/Error401' },
          413: { $ref: '#/components/responses/Error413' },
          429: { $ref: '#/components/responses/Error429' },
          503: { $ref: '#/components/responses/Error503' },
        },
      },
    },
  };
}

/**
 * API keys (on when API_KEYS_FILE is set): a bearer token or the `x-api-key` header. The
 * tool operations list both, and `{}` since keys are off by default.
 */
export const SECURITY_SCHEMES = {
  bearerKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key as a bearer token (when API_KEYS_FILE is set)',
  },
  headerKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key in x-api-key' },
};
export const TOOL_SECURITY = [{}, { bearerKey: [] }, { headerKey: [] }];
