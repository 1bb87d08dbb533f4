import fp from 'fastify-plugin';
import { ConfigError } from '../config/env.js';
import { PipelineFileError, PipelineSet } from '../pipelines/pipeline-set.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The named pipelines of PIPELINES_FILE, each served as a tool (docs/api.md, "Pipelines"). */
    pipelines: PipelineSet;
    /** Reads PIPELINES_FILE again (SIGHUP): a file that does not check keeps the old set, with one log line. */
    reloadPipelines(): void;
  }
}

/**
 * `app.pipelines`: the named pipelines, read at boot (a file that does not check stops the
 * boot with one line) and again by `app.reloadPipelines()` on SIGHUP (src/server.ts).
 */
export default fp(
  async (app) => {
    const { PIPELINES_FILE, PIPELINE_TIMEOUT_MS } = app.hubConfig.env;
    const set = new PipelineSet({
      path: PIPELINES_FILE === '' ? null : PIPELINES_FILE,
      tools: app.tools,
      policies: app.policies,
      timeoutMs: PIPELINE_TIMEOUT_MS,
    });
    try {
      set.load();
    } catch (err) {
      if (err instanceof PipelineFileError) throw new ConfigError(err.message);
      throw err;
    }
    app.decorate('pipelines', set);
    app.decorate('reloadPipelines', () => {
      if (set.path === null) return;
      try {
        app.log.warn({ pipelines: set.load() }, 'pipelines reloaded (SIGHUP)');
      } catch (err) {
        if (!(err instanceof PipelineFileError)) throw err;
        app.log.error(
          { reason: err.message },
          'pipelines not reloaded: the file is invalid; the old set stays',
        );
      }
    });
  },
  { name: 'toolhub-pipelines' },
);
