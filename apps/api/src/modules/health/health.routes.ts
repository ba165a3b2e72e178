import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { APP_VERSION, healthResponseSchema, type HealthResponse } from '@pagewright/shared';

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'down'> {
  try {
    await probe();
    return 'ok';
  } catch {
    return 'down';
  }
}

/** GET /health: answers 200 only when PostgreSQL and Redis both answer. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', {
    logLevel: 'warn',
    schema: { tags: ['health'], response: { 200: healthResponseSchema, 503: healthResponseSchema } },
    handler: async (_request, reply) => {
      const [database, redis] = await Promise.all([
        check(() => app.db.$queryRaw`SELECT 1`),
        check(() => app.redis.ping()),
      ]);
      const body: HealthResponse = {
        status: database === 'ok' && redis === 'ok' ? 'ok' : 'degraded',
        version: APP_VERSION,
        build: app.config.BUILD_HASH,
        checks: { database, redis },
      };
      return reply.status(body.status === 'ok' ? 200 : 503).send(body);
    },
  });
};
