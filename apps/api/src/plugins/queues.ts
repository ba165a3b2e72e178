import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUES, queuePrefix, type RunFlowPayload } from '@pagewright/shared';

export type RunsQueue = Queue<RunFlowPayload>;

declare module 'fastify' {
  interface FastifyInstance {
    queues: { runs: RunsQueue };
  }
}

/** The BullMQ queues the API adds jobs to, on a connection of their own, closed with the app. */
export const queuesPlugin = fp(async (app: FastifyInstance) => {
  // BullMQ wants no retry cap on its connection; app.redis keeps its cap for request-time calls.
  const connection = new Redis(app.config.REDIS_URL, { maxRetriesPerRequest: null });
  const prefix = queuePrefix(app.config.REDIS_KEY_PREFIX);
  const runs: RunsQueue = new Queue<RunFlowPayload>(QUEUES.runs, { connection, prefix });
  app.decorate('queues', { runs });
  app.addHook('onClose', async () => {
    await runs.close();
    connection.disconnect();
  });
});
