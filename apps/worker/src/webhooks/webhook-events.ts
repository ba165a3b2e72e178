import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { DatasetRowChanges, Prisma, PrismaClient } from '@pagewright/db';
import {
  WEBHOOK_JOBS,
  jobOf,
  stepValueSchema,
  type DatasetRowsChangedData,
  type DeliverWebhookPayload,
  type RunFinishedData,
  type SendMailPayload,
  type WebhookBody,
  type WebhookEvent,
} from '@pagewright/shared';
import type { RunEnd } from '../flows/run-store.js';
import { changeAlertMail, diffRunTables, tablesOfRun } from './change-alert.js';

export interface WebhookEventsDeps {
  db: PrismaClient;
  queue: Queue<DeliverWebhookPayload>;
  /** The product's address: a run's results link is built on it. */
  publicUrl: string;
  /** Queues an e-mail (the worker's mail queue): change alerts. */
  sendMail: (mail: SendMailPayload) => Promise<void>;
  log: Logger;
}

/** What a run's RUN_FINISHED summary counts: its steps, and the rows of each Get table. */
async function runSummary(db: PrismaClient, runId: string): Promise<RunFinishedData['summary']> {
  const steps = await db.runStep.findMany({
    where: { runId },
    orderBy: [{ sequence: 'asc' }, { timestamp: 'asc' }],
    select: { sequence: true, label: true, actionType: true, value: true },
  });
  const rows: Record<string, number> = {};
  for (const step of steps) {
    if (step.actionType !== 'GET_TABLE') continue;
    const value = stepValueSchema.safeParse(step.value);
    if (!value.success || value.data.kind !== 'table') continue;
    // A looped Get table ran several times: its last step counts, as the dataset fill does.
    rows[step.label?.trim() || `Get table (${step.sequence})`] = value.data.rows.length;
  }
  return { steps: steps.length, rows };
}

/**
 * Queues the webhook deliveries of a run's events (issue 26): each enabled endpoint of the run's
 * extractor, and of the scheduler that started it, subscribed to the event gets one
 * WebhookDelivery row (its `webhook-id` minted here) and one job. Called after the run's end
 * committed, so a receiver never hears of a run it cannot read yet.
 */
export function createWebhookEvents(deps: WebhookEventsDeps) {
  const { db, queue, log } = deps;

  async function endpointsFor(
    owner: { extractorId: string; schedulerId: string | null },
    event: WebhookEvent,
  ) {
    return db.webhookEndpoint.findMany({
      where: {
        enabled: true,
        events: { has: event },
        OR: [
          { extractorId: owner.extractorId },
          ...(owner.schedulerId ? [{ schedulerId: owner.schedulerId }] : []),
        ],
      },
      select: { id: true },
    });
  }

  async function queueDeliveries(
    endpointIds: readonly string[],
    event: WebhookEvent,
    data: unknown,
  ): Promise<number> {
    if (endpointIds.length === 0) return 0;
    const body: WebhookBody<unknown> = { type: event, timestamp: new Date().toISOString(), data };
    const deliveries = await db.webhookDelivery.createManyAndReturn({
      data: endpointIds.map((endpointId) => ({
        endpointId,
        event,
        webhookId: `msg_${randomUUID()}`,
        payload: body as unknown as Prisma.InputJsonValue,
      })),
      select: { id: true },
    });
    await queue.addBulk(
      deliveries.map((delivery) => jobOf(WEBHOOK_JOBS.deliver, { deliveryId: delivery.id })),
    );
    return deliveries.length;
  }

  /**
   * Change alerts (issue 26 item 6): a successful run whose Get tables differ from the previous
   * successful run's e-mails its owner (the extractor's changeAlertEmail) and sends DATA_CHANGED
   * to the endpoints subscribed to it. The first successful run only sets the baseline.
   */
  async function alertChanges(run: {
    id: string;
    extractorId: string;
    schedulerId: string | null;
    finishedAt: Date | null;
    resultsUrl: string;
  }) {
    const owner = { extractorId: run.extractorId, schedulerId: run.schedulerId };
    const [extractor, endpoints] = await Promise.all([
      db.extractor.findUnique({
        where: { id: run.extractorId },
        select: { name: true, changeAlertEmail: true, user: { select: { email: true, firstName: true } } },
      }),
      endpointsFor(owner, 'DATA_CHANGED'),
    ]);
    if (!extractor || (!extractor.changeAlertEmail && endpoints.length === 0)) return;
    const previous = await db.run.findFirst({
      where: {
        extractorId: run.extractorId,
        status: 'SUCCESS',
        trigger: { not: 'VALIDATION' },
        // A bulk run's runs each had their own inputs: none is a baseline of the extractor's data.
        bulkRunItem: { is: null },
        id: { not: run.id },
        ...(run.finishedAt ? { finishedAt: { lt: run.finishedAt } } : {}),
      },
      orderBy: { finishedAt: 'desc' },
      select: { id: true },
    });
    if (!previous) return;
    const changes = diffRunTables(await tablesOfRun(db, previous.id), await tablesOfRun(db, run.id));
    if (changes.length === 0) return;
    if (extractor.changeAlertEmail)
      await deps.sendMail(
        changeAlertMail({
          to: extractor.user.email,
          firstName: extractor.user.firstName,
          extractorName: extractor.name,
          changes,
          resultsUrl: run.resultsUrl,
        }),
      );
    await queueDeliveries(
      endpoints.map((endpoint) => endpoint.id),
      'DATA_CHANGED',
      {
        runId: run.id,
        previousRunId: previous.id,
        extractorId: run.extractorId,
        extractorName: extractor.name,
        tables: changes,
        resultsUrl: run.resultsUrl,
      },
    );
    log.info({ runId: run.id, tables: changes.length }, 'change alert sent');
  }

  return {
    /**
     * RUN_FINISHED for the run, DATASET_ROWS_CHANGED for each dataset whose rows it wrote, and the
     * change alert of a successful run.
     */
    async runEnded(runId: string, end: RunEnd, datasetChanges: readonly DatasetRowChanges[]) {
      const run = await db.run.findUnique({
        where: { id: runId },
        select: {
          id: true,
          extractorId: true,
          schedulerId: true,
          trigger: true,
          startedAt: true,
          finishedAt: true,
          errorMessage: true,
          extractor: { select: { name: true } },
          bulkRunItem: { select: { id: true } },
        },
      });
      // A validation's run is the builder's, not a run of the extractor its webhooks announce.
      if (!run || run.trigger === 'VALIDATION') return;
      const owner = { extractorId: run.extractorId, schedulerId: run.schedulerId };
      const resultsUrl = new URL(`/api/extractor/run/${run.id}`, deps.publicUrl).href;
      const finished = await endpointsFor(owner, 'RUN_FINISHED');
      if (finished.length > 0) {
        const data: RunFinishedData = {
          runId: run.id,
          extractorId: run.extractorId,
          extractorName: run.extractor.name,
          status: end.status,
          trigger: run.trigger,
          schedulerId: run.schedulerId,
          startedAt: run.startedAt.toISOString(),
          finishedAt: (run.finishedAt ?? new Date()).toISOString(),
          errorMessage: run.errorMessage,
          summary: await runSummary(db, run.id),
          resultsUrl,
        };
        const queued = await queueDeliveries(
          finished.map((endpoint) => endpoint.id),
          'RUN_FINISHED',
          data,
        );
        log.info({ runId, queued }, 'RUN_FINISHED webhooks queued');
      }
      if (datasetChanges.length > 0) {
        const changed = await endpointsFor(owner, 'DATASET_ROWS_CHANGED');
        for (const change of datasetChanges) {
          if (change.inserted + change.updated === 0) continue;
          const data: DatasetRowsChangedData = { runId: run.id, extractorId: run.extractorId, ...change };
          await queueDeliveries(
            changed.map((endpoint) => endpoint.id),
            'DATASET_ROWS_CHANGED',
            data,
          );
        }
      }
      // Change alerts compare one run of the extractor's data with the last: a bulk run's item
      // (other inputs) is neither.
      if (end.status === 'SUCCESS' && !run.bulkRunItem) await alertChanges({ ...run, resultsUrl });
    },
    queueDeliveries,
  };
}
