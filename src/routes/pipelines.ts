import type { FastifyInstance } from 'fastify';
import { PIPELINE_RUN_ROUTE_DOC } from '../catalogue/pipeline-route-docs.js';
import { routeSchema } from '../catalogue/route-doc.js';
import { HubError } from '../errors.js';
import { callerOf } from '../http/caller.js';
import { checkPipeline, PipelineDefinitionError } from '../pipelines/check.js';
import { fromDedicated } from '../run/input.js';
import { SOURCES, type Source } from '../run-meta.js';
import { isObject } from '../shared/is-object.js';
import { quote } from '../shared/quote.js';
import { readFields, readSource } from './dedicated.js';
import { cacheDirectivesOf, sendRun } from './send-run.js';

/**
 * The pipelines' routes (docs/api.md, "Pipelines"): `POST /api/pipelines/run`, an ad hoc
 * pipeline checked then run step by step, and `POST /api/pipelines/<id>/`, a named pipeline's
 * dedicated route. The named ones change on SIGHUP, so their route is one parametric route
 * that asks the facade, not one route each.
 */
export default async function pipelineRoutes(app: FastifyInstance): Promise<void> {
  app.post(
    PIPELINE_RUN_ROUTE_DOC.url,
    { config: { toolSurface: true }, schema: routeSchema(PIPELINE_RUN_ROUTE_DOC) },
    async (request, reply) => {
      const body = request.body;
      if (!isObject(body))
        throw new HubError(
          'INVALID_INPUT',
          'the body must be a JSON object: {"input"?, "steps": [ … ], "source"?}',
        );
      const { input = {}, source = 'api', steps, ...rest } = body;
      const extra = Object.keys(rest)[0];
      if (extra !== undefined)
        throw new HubError(
          'INVALID_INPUT',
          `unknown field ${quote(extra)}; the body takes input, steps, source`,
        );
      if (!isObject(input))
        throw new HubError('INVALID_INPUT', 'input must be a JSON object of named fields');
      if (!SOURCES.includes(source as Source))
        throw new HubError('INVALID_INPUT', `source must be one of: ${SOURCES.join(', ')}`);
      let checked: ReturnType<typeof checkPipeline>;
      try {
        checked = checkPipeline({ steps }, (id) => app.facade.tools.get(id)?.def);
      } catch (err) {
        if (err instanceof PipelineDefinitionError)
          throw new HubError('INVALID_INPUT', `pipeline: ${err.message}`);
        throw err;
      }
      const result = await app.facade.runSteps(
        {
          surface: 'pipeline',
          source: source as Source,
          ...callerOf(request),
          requestId: request.id,
          log: request.log,
          cacheControl: cacheDirectivesOf(request),
        },
        checked.steps,
        input,
      );
      return sendRun(reply, result);
    },
  );

  // Undocumented here: each named pipeline's path is an operation of its own in the OpenAPI document.
  app.post('/api/pipelines/:pipelineId/', { config: { toolSurface: true } }, async (request, reply) => {
    const { pipelineId } = request.params as { pipelineId: string };
    const pipeline = app.pipelines.get(pipelineId);
    if (!pipeline) {
      const named = app.pipelines.ids();
      throw new HubError(
        'INVALID_INPUT',
        `no pipeline ${quote(pipelineId)}; ${named.length ? `named: ${named.join(', ')}` : 'none is named (PIPELINES_FILE)'}`,
        { status: 404 },
      );
    }
    const endpoint = pipeline.tool.def.endpoints[0]!;
    // A tool's dedicated endpoint reads its named fields and `?source=` the same way.
    const body = readFields(request, 'POST', endpoint);
    const source = readSource(request);
    const result = await app.facade.run({
      toolId: pipelineId,
      surface: 'dedicated',
      source,
      resolve: (def) => fromDedicated(def, endpoint, body),
      ...callerOf(request),
      requestId: request.id,
      log: request.log,
      cacheControl: cacheDirectivesOf(request),
    });
    return sendRun(reply, result);
  });
}
