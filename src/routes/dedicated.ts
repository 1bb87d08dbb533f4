import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HubError } from '../errors.js';
import { callerOf } from '../http/caller.js';
import { fromDedicated } from '../run/input.js';
import { SOURCES, type Source } from '../run-meta.js';
import { quote } from '../shared/quote.js';
import type { ToolEndpoint } from '../shared/tool-def.js';
import { cacheDirectivesOf, sendRun } from './send-run.js';

/**
 * The dedicated endpoints, derived from the tool modules' `endpoints` (no hand-kept
 * list). Named fields come from the JSON body (POST) or the query (GET); `source` may
 * be given as a query parameter on both.
 */
export default async function dedicatedRoutes(app: FastifyInstance): Promise<void> {
  for (const { def } of app.tools.values()) {
    for (const endpoint of def.endpoints) {
      for (const method of endpoint.methods) {
        app.route({
          method,
          url: endpoint.path,
          config: { toolSurface: true },
          handler: async (request, reply) => {
            const fields = readFields(request, method, endpoint);
            const result = await app.facade.run({
              toolId: def.id,
              surface: 'dedicated',
              source: readSource(request),
              resolve: (d) => fromDedicated(d, endpoint, fields),
              ...callerOf(request),
              requestId: request.id,
              log: request.log,
              ifNoneMatch: request.headers['if-none-match'],
              cacheControl: cacheDirectivesOf(request),
            });
            return sendRun(reply, result);
          },
        });
      }
    }
  }
}

export function readFields(
  request: FastifyRequest,
  method: string,
  endpoint: ToolEndpoint,
): Record<string, unknown> {
  if (method === 'GET') {
    const query = { ...(request.query as Record<string, unknown>) };
    delete query.source;
    for (const [key, value] of Object.entries(query)) {
      if (Array.isArray(value))
        throw new HubError('INVALID_INPUT', `parameter ${quote(key)} is given more than once`);
    }
    return query;
  }
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HubError(
      'INVALID_INPUT',
      `the body of POST ${endpoint.path} must be a JSON object of named fields`,
    );
  }
  return body as Record<string, unknown>;
}

export function readSource(request: FastifyRequest): Source {
  const source = (request.query as Record<string, unknown>).source ?? 'api';
  if (!SOURCES.includes(source as Source)) {
    throw new HubError('INVALID_INPUT', `source must be one of: ${SOURCES.join(', ')}`);
  }
  return source as Source;
}
