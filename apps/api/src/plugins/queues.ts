import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  QUEUES,
  queuePrefix,
  type AdvanceBulkRunsPayload,
  type DeliverWebhookPayload,
  type FireSchedulerPayload,
  type RecognitionPayload,
  type RunFlowPayload,
  type SendMessageMailPayload,
} from '@pagewright/shared';
import { FAIL_FAST_REDIS_OPTIONS } from '../lib/redis-fail-fast.js';

export type RunsQueue = Queue<RunFlowPayload>;
/** Holds the job schedulers of users' schedulers (the worker fires them). */
export type SchedulesQueue = Queue<FireSchedulerPayload>;
/** E-mail the worker sends (retried while the mail server is away). */
export type MailQueue = Queue<SendMessageMailPayload>;
/** PDFs the worker's child processes read (template pages, statements). */
export type RecognitionQueue = Queue<RecognitionPayload>;
/** Webhook deliveries (redeliveries and test events; the worker queues a run's own). */
export type WebhooksQueue = Queue<DeliverWebhookPayload>;
/** Wake-ups of the worker's bulk-run driver (issue 26). */
export type BulkRunsQueue = Queue<AdvanceBulkRunsPayload>;

declare module 'fastify' {
  interface FastifyInstance {
    queues: {
      runs: RunsQueue;
      schedules: SchedulesQueue;
      mail: MailQueue;
      recognition: RecognitionQueue;
      webhooks: WebhooksQueue;
      bulkRuns: BulkRunsQueue;
      /** Only read: /health checks that the worker's maintenance job scheduler is there. */
      maintenance: Queue;
    };
  }
}

/** The BullMQ queues the API adds jobs to, on a connection of their own, closed with the app. */
export const queuesPlugin = fp(async (app: FastifyInstance) => {
  // Only adds jobs and reads them, never blocks (BullMQ workers do): it fails fast like app.redis,
  // so Execute answers 503 at once while Redis is down instead of queueing the run for later.
  const connection = new Redis(app.config.REDIS_URL, { ...FAIL_FAST_REDIS_OPTIONS, lazyConnect: true });
  await connection.connect();
  const prefix = queuePrefix(app.config.REDIS_KEY_PREFIX);
  const runs: RunsQueue = new Queue<RunFlowPayload>(QUEUES.runs, { connection, prefix });
  const schedules: SchedulesQueue = new Queue<FireSchedulerPayload>(QUEUES.schedules, { connection, prefix });
  const mail: MailQueue = new Queue<SendMessageMailPayload>(QUEUES.mail, { connection, prefix });
  const recognition: RecognitionQueue = new Queue<RecognitionPayload>(QUEUES.recognition, {
    connection,
    prefix,
  });
  const webhooks: WebhooksQueue = new Queue<DeliverWebhookPayload>(QUEUES.webhooks, { connection, prefix });
  const bulkRuns: BulkRunsQueue = new Queue<AdvanceBulkRunsPayload>(QUEUES.bulkRuns, { connection, prefix });
  const maintenance = new Queue(QUEUES.maintenance, { connection, prefix });
  app.decorate('queues', { runs, schedules, mail, recognition, webhooks, bulkRuns, maintenance });
  app.addHook('onClose', async () => {
    await runs.close();
    await schedules.close();
    await mail.close();
    await recognition.close();
    await webhooks.close();
    await bulkRuns.close();
    await maintenance.close();
    connection.disconnect();
  });
});
