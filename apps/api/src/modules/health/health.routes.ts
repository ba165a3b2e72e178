import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { APP_VERSION, HEALTH_REASONS, healthResponseSchema, type HealthResponse } from '@pagewright/shared';

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'down'> {
  try {
    await probe();
    return 'ok';
  } catch {
    return 'down';
  }
}

/**
 * GET /health: 503 when PostgreSQL or Redis does not answer, since the API cannot serve without
 * them. Without a live worker the API still serves (runs wait in the queue): 200, but `degraded`
 * with the reason, so a load balancer keeps the API while an operator sees what is missing.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', {
    logLevel: 'warn',
    schema: { tags: ['health'], response: { 200: healthResponseSchema, 503: healthResponseSchema } },
    handler: async (_request, reply) => {
      let workers = 0;
      const [database, redis] = await Promise.all([
        check(() => app.db.$queryRaw`SELECT 1`),
        check(() => app.redis.ping()),
        // BullMQ names each worker's connection to the run queue: a killed worker drops off at once.
        check(async () => {
          workers = (await app.queues.runs.getWorkers()).length;
        }),
      ]);
      const reasons = [
        ...(database === 'down' ? [HEALTH_REASONS.database] : []),
        ...(redis === 'down' ? [HEALTH_REASONS.redis] : []),
        ...(redis === 'ok' && workers === 0 ? [HEALTH_REASONS.noWorker] : []),
      ];
      const body: HealthResponse = {
        status: reasons.length === 0 ? 'ok' : 'degraded',
        version: APP_VERSION,
        build: app.config.BUILD_HASH,
        checks: { database, redis, workers: workers > 0 ? 'ok' : 'down' },
        workers,
        reasons,
      };
      return reply.status(database === 'ok' && redis === 'ok' ? 200 : 503).send(body);
    },
  });
};
