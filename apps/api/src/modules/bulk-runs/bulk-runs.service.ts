import type { FastifyBaseLogger } from 'fastify';
import type { Queue } from 'bullmq';
import {
  BULK_RUNS_MAX_RUNNING_PER_USER,
  BULK_RUN_JOBS,
  MESSAGES,
  addJob,
  declaredInputsOf,
  runInputValuesOf,
  type AdvanceBulkRunsPayload,
  type BulkRunCounts,
  type BulkRunItemPage,
  type BulkRunItemQuery,
  type BulkRunView,
  type CreateBulkRunParsed,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { bulkRunInputRows, type BulkRunRowSource } from './bulk-run-inputs.js';
import type { BulkRunRepository } from './bulk-runs.repository.js';

type StoredBulkRun = NonNullable<Awaited<ReturnType<BulkRunRepository['findOwned']>>>;

function viewOf(bulkRun: StoredBulkRun, counts: BulkRunCounts | undefined): BulkRunView {
  return {
    id: bulkRun.id,
    extractorId: bulkRun.extractorId,
    extractorName: bulkRun.extractor.name,
    source: bulkRun.source,
    sourceName: bulkRun.sourceName,
    status: bulkRun.status,
    total: bulkRun.total,
    counts: counts ?? { pending: 0, running: 0, success: 0, error: 0, stopped: 0, cancelled: 0 },
    createdAt: bulkRun.createdAt.toISOString(),
    finishedAt: bulkRun.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Bulk runs (issue 26, item 4): made from a source checked row by row, then left to the worker's
 * driver, which starts their items' runs a few at a time; here they are read, retried, cancelled.
 */
export function createBulkRunService(deps: {
  bulkRuns: BulkRunRepository;
  tables: BulkRunRowSource;
  queue: Queue<AdvanceBulkRunsPayload>;
  log: FastifyBaseLogger;
}) {
  const { bulkRuns, tables, queue, log } = deps;

  /** Wakes the driver; if Redis is away, its sweep starts the items within half a minute. */
  async function wake(userId: string): Promise<void> {
    try {
      await addJob(queue, BULK_RUN_JOBS.advance, { userId });
    } catch (error) {
      log.warn({ err: error }, 'could not wake the bulk-run driver; its sweep will start the items');
    }
  }

  async function owned(userId: string, bulkRunId: string): Promise<BulkRunView> {
    const bulkRun = await bulkRuns.findOwned(userId, bulkRunId);
    if (!bulkRun) throw AppError.notFound(MESSAGES['bulk.run.not.found']);
    return viewOf(bulkRun, (await bulkRuns.countsOf([bulkRun.id])).get(bulkRun.id));
  }

  return {
    async create(userId: string, extractorId: string, source: CreateBulkRunParsed): Promise<BulkRunView> {
      const extractor = await bulkRuns.findOwnedExtractor(userId, extractorId);
      if (!extractor) throw AppError.notFound();
      const declared = declaredInputsOf(extractor.inputs);
      if (declared.length === 0) throw AppError.validation(MESSAGES['bulk.run.no.inputs'], 'source');
      if ((await bulkRuns.countRunning(userId)) >= BULK_RUNS_MAX_RUNNING_PER_USER)
        throw new AppError(
          'CONFLICT',
          MESSAGES['bulk.run.too.many.running'].replace('{{max}}', String(BULK_RUNS_MAX_RUNNING_PER_USER)),
        );
      const { sourceName, rows } = await bulkRunInputRows(userId, declared, source, tables);
      const id = await bulkRuns.create({ userId, extractorId, source: source.source, sourceName, rows });
      log.info({ bulkRunId: id, items: rows.length }, 'bulk run made');
      await wake(userId);
      return owned(userId, id);
    },

    get: owned,

    async list(userId: string, extractorId?: string): Promise<BulkRunView[]> {
      const list = await bulkRuns.list(userId, extractorId);
      const counts = await bulkRuns.countsOf(list.map((bulkRun) => bulkRun.id));
      return list.map((bulkRun) => viewOf(bulkRun, counts.get(bulkRun.id)));
    },

    async items(userId: string, bulkRunId: string, query: BulkRunItemQuery): Promise<BulkRunItemPage> {
      await owned(userId, bulkRunId);
      const rows = await bulkRuns.items(bulkRunId, query);
      const page = rows.slice(0, query.limit);
      return {
        items: page.map((item) => ({
          position: item.position,
          inputs: runInputValuesOf(item.inputs),
          status: item.status,
          runId: item.runId,
          attempts: item.attempts,
          errorMessage: item.errorMessage,
          finishedAt: item.finishedAt?.toISOString() ?? null,
        })),
        nextAfter: rows.length > query.limit ? (page.at(-1)?.position ?? null) : null,
      };
    },

    /** One failed row again (409 unless it failed or was stopped), or with no position every failed row. */
    async retry(userId: string, bulkRunId: string, position?: number): Promise<BulkRunView> {
      await owned(userId, bulkRunId);
      const retried = await bulkRuns.retry(userId, bulkRunId, position);
      if (retried === 0)
        throw new AppError(
          'CONFLICT',
          MESSAGES[position === undefined ? 'bulk.run.nothing.to.retry' : 'bulk.run.item.not.retryable'],
        );
      await wake(userId);
      return owned(userId, bulkRunId);
    },

    async cancel(userId: string, bulkRunId: string): Promise<BulkRunView> {
      await owned(userId, bulkRunId);
      await bulkRuns.cancel(userId, bulkRunId, MESSAGES['bulk.run.item.cancelled']);
      return owned(userId, bulkRunId);
    },
  };
}
export type BulkRunService = ReturnType<typeof createBulkRunService>;
