import fp from 'fastify-plugin';
import { type PoolOptions, ToolPool } from '../pool/pool.js';

declare module 'fastify' {
  interface FastifyInstance {
    pool: ToolPool;
  }
}

/** The Piscina pool; closed (after in-flight runs finish) when the app closes. */
export default fp<PoolOptions>(
  async (app, opts) => {
    const pool = new ToolPool(opts);
    pool.onError = (err) => app.log.error({ err }, 'worker thread error');
    app.decorate('pool', pool);
    await pool.warmUp();
    app.addHook('onClose', async () => pool.close());
  },
  { name: 'toolhub-pool' },
);
