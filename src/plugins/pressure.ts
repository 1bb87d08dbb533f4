import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { EnvConfig } from '../config/env.js';
import { HubError } from '../errors.js';

/** Observability stays up under pressure: these answer even while runs are shed. */
const EXEMPT = /^\/(healthz|readyz|metrics)\/?(\?|$)/;

/**
 * Load shedding (@fastify/under-pressure): while the event loop lags, the API thread is
 * saturated or memory is high, requests get 503 CONCURRENCY_LIMIT with Retry-After at
 * once instead of slowing everyone down.
 */
export default fp<EnvConfig>(
  async (app, env) => {
    await app.register(underPressure, {
      maxEventLoopDelay: env.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: env.PRESSURE_MAX_EVENT_LOOP_UTILIZATION,
      maxHeapUsedBytes:
        env.PRESSURE_MAX_HEAP_USED_BYTES || Math.floor(getHeapStatistics().heap_size_limit * 0.9),
      maxRssBytes: env.PRESSURE_MAX_RSS_BYTES,
      sampleInterval: 250,
      pressureHandler: async (request: FastifyRequest, _reply, type) => {
        if (EXEMPT.test(request.url)) return;
        throw new HubError('CONCURRENCY_LIMIT', `the instance is under pressure (${type}); retry shortly`, {
          status: 503,
          headers: { 'Retry-After': 2 },
        });
      },
    });
  },
  { name: 'toolhub-pressure', dependencies: ['toolhub-errors'] },
);
