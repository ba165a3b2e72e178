import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APP_VERSION,
  HEALTH_REASONS,
  MAINTENANCE_JOBS,
  healthResponseSchema,
  type HealthResponse,
} from '@pagewright/shared';
import { jobSchedulerId } from '@pagewright/shared/schedule-timetable';

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'down'> {
  try {
    await probe();
    return 'ok';
  } catch {
    return 'down';
  }
}

/** Whether Redis holds exactly one job scheduler per Scheduler row, and the maintenance one. */
async function jobSchedulersMatch(app: FastifyInstance): Promise<boolean> {
  const { schedules, maintenance } = app.queues;
  // The ids alone (the sorted set BullMQ keeps them in): one call however many there are.
  const [inRedis, rows, purge] = await Promise.all([
    app.redis.zrange(schedules.toKey('repeat'), '0', '-1'),
    app.db.scheduler.findMany({ select: { id: true } }),
    maintenance.getJobScheduler(MAINTENANCE_JOBS.purgeExpiredSessions.name),
  ]);
  if (!purge || inRedis.length !== rows.length) return false;
  const keys = new Set(inRedis);
  return rows.every((row) => keys.has(jobSchedulerId(row.id)));
}

/**
 * GET /health: 503 when PostgreSQL or Redis does not answer, since the API cannot serve without
 * them. Without a live worker the API still serves (runs wait in the queue): 200, but `degraded`
 * with the reason, so a load balancer keeps the API while an operator sees what is missing. So
 * when Redis lost job schedulers (schedules silently stop until a worker puts them back).
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * A save writes Redis inside its database transaction, so the two differ for a moment: a
   * difference counts only when a second look, a moment later, still finds one.
   */
  const jobSchedulersCheck = async (): Promise<'ok' | 'down'> => {
    if (await jobSchedulersMatch(app)) return 'ok';
    await new Promise((resolve) => setTimeout(resolve, 250));
    return (await jobSchedulersMatch(app)) ? 'ok' : 'down';
  };

  app.get('/health', {
    logLevel: 'warn',
    schema: { tags: ['health'], response: { 200: healthResponseSchema, 503: healthResponseSchema } },
    handler: async (_request, reply) => {
      let workers = 0;
      let jobSchedulers: 'ok' | 'down' = 'down';
      const [database, redis] = await Promise.all([
        check(() => app.db.$queryRaw`SELECT 1`),
        check(() => app.redis.ping()),
        // BullMQ names each worker's connection to the run queue: a killed worker drops off at once.
        check(async () => {
          workers = (await app.queues.runs.getWorkers()).length;
        }),
        check(async () => {
          jobSchedulers = await jobSchedulersCheck();
        }),
      ]);
      const reasons = [
        ...(database === 'down' ? [HEALTH_REASONS.database] : []),
        ...(redis === 'down' ? [HEALTH_REASONS.redis] : []),
        ...(redis === 'ok' && workers === 0 ? [HEALTH_REASONS.noWorker] : []),
        ...(database === 'ok' && redis === 'ok' && jobSchedulers === 'down'
          ? [HEALTH_REASONS.jobSchedulers]
          : []),
      ];
      const body: HealthResponse = {
        status: reasons.length === 0 ? 'ok' : 'degraded',
        version: APP_VERSION,
        build: app.config.BUILD_HASH,
        checks: { database, redis, workers: workers > 0 ? 'ok' : 'down', jobSchedulers },
        workers,
        reasons,
      };
      return reply.status(database === 'ok' && redis === 'ok' ? 200 : 503).send(body);
    },
  });
};
