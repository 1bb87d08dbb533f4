import { SOURCES } from '../run-meta.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The batch request's door: its request and answer schemas (components of the OpenAPI document). */
export function batchRequestSchemas(maxRuns: number): Record<string, unknown> {
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
        source: { enum: [...SOURCES], description: 'For runs that do not say' },
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
          // Each success is the named tool's (ToolRunSuccessByTool), so a generated client
          // reads a typed result; `ok` tells a success from a ToolRunError.
          items: {
            oneOf: [
              {
                allOf: [
                  ref('ToolRunSuccessByTool'),
                  { type: 'object', required: ['rateLimit'], properties: { rateLimit: ref('RateLimit') } },
                ],
              },
              ref('ToolRunError'),
            ],
          },
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
