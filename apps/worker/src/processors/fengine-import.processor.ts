import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import type { Logger } from 'pino';
import {
  countEngineSync,
  pendingEngineRows,
  settleEngineRows,
  type FileStorage,
  type PendingEngineRow,
  type PrismaClient,
  type SqlRunner,
} from '@pagewright/db';
import {
  ENGINE_DATASET_ENTITIES,
  ENGINE_IMPORT_BATCH_MAX,
  ENGINE_MESSAGES,
  FENGINE_IMPORT_JOBS,
  addJob,
  fengineImportJobId,
  fengineImportPayloadSchema,
  jobOf,
  isEngineDatasetType,
  type EngineEntity,
  type EngineImportRow,
  type ValueType,
} from '@pagewright/shared';
import type { WorkerConfig } from '../config.js';
import {
  EngineError,
  createEngineConnector,
  createSignedInEngine,
  type SignedInEngine,
} from '../fengine/engine-connector.js';
import { importEngineEgress } from '../fengine/engine-policy.js';

/** A file larger than this is not sent (base64 in a JSON body): the row is refused with why. */
export const ENGINE_IMPORT_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** The dataset's error sentence is cut to its column's size. */
const ERROR_MAX = 2000;

type EngineImportConfig = Pick<
  WorkerConfig,
  | 'FENGINE_URL'
  | 'FENGINE_USER'
  | 'FENGINE_PASSWORD'
  | 'FENGINE_ALLOWED_ORIGINS'
  | 'NAVIGATION_ALLOW_PRIVATE_NETWORKS'
  | 'NAVIGATION_ALLOWED_HOSTS'
  | 'FENGINE_IMPORT_RETRY_SECONDS'
>;

export interface EngineImportDeps {
  db: PrismaClient;
  sql: SqlRunner;
  files: FileStorage;
  config: EngineImportConfig;
  log: Logger;
}

/** Queues a dataset's import unless one already waits or runs for it (its job id is the dataset's). */
export async function queueEngineImport(
  queue: Queue,
  datasetId: string,
  config: Pick<WorkerConfig, 'FENGINE_IMPORT_RETRY_SECONDS'>,
): Promise<void> {
  await addJob(
    queue,
    FENGINE_IMPORT_JOBS.importDataset,
    { datasetId },
    { backoff: { type: 'exponential', delay: config.FENGINE_IMPORT_RETRY_SECONDS * 1000 } },
  );
}

/** Keeps the sweep's job scheduler (idempotent: run at start and when Redis comes back). */
export async function scheduleEngineImportSweep(queue: Queue, everyMs: number): Promise<void> {
  const sweep = FENGINE_IMPORT_JOBS.sweep;
  await queue.upsertJobScheduler(sweep.name, { every: everyMs }, jobOf(sweep, {}));
}

/** One import row's values: by the entity's field names, typed as the contract says. */
async function importValue(
  value: unknown,
  type: ValueType,
  ownerId: string,
  deps: Pick<EngineImportDeps, 'db' | 'files'>,
): Promise<EngineImportRow['values'][string] | { rejection: string }> {
  if (value === null || value === undefined) return null;
  // What a dataset column holds (PendingEngineRow): text, numeric as text, a Date, a file's id.
  const stored = value as string | Date;
  switch (type) {
    case 'TEXT':
      return String(stored);
    case 'NUMBER':
      return Number(stored);
    case 'DATETIME':
      return (stored instanceof Date ? stored : new Date(String(stored))).toISOString();
    case 'FILE': {
      const id = String(stored);
      const meta = await deps.db.storedFile.findFirst({
        where: { id, userId: ownerId },
        select: { size: true },
      });
      if (!meta) return null;
      if (meta.size > ENGINE_IMPORT_FILE_MAX_BYTES)
        return {
          rejection: `The file is larger than the ${ENGINE_IMPORT_FILE_MAX_BYTES / (1024 * 1024)} MB an import carries`,
        };
      const file = await deps.files.get(id, ownerId);
      if (!file) return null;
      return { fileName: file.name, mimeType: file.mimeType, contentBase64: file.content.toString('base64') };
    }
  }
}

/**
 * The import of one engine dataset's pending rows into the configured F-engine, in batches of
 * ENGINE_IMPORT_BATCH_MAX (externalId `<datasetId>:<rowId>`: the engine upserts by it, so a retried
 * batch never doubles a row). Accepted rows are settled, refused ones keep the engine's reason and
 * wait until they change. A failure leaves the rows pending, writes its sentence on the dataset and
 * throws: BullMQ tries again (8 times), then the sweep queues the dataset again.
 */
export function createEngineImportProcessor(deps: EngineImportDeps) {
  const { db, sql, config, log } = deps;
  let engine: SignedInEngine | undefined;

  function signedInEngine(): SignedInEngine | undefined {
    if (!config.FENGINE_URL || !config.FENGINE_USER || !config.FENGINE_PASSWORD) return undefined;
    engine ??= createSignedInEngine(
      createEngineConnector({ baseUrl: config.FENGINE_URL, ...importEngineEgress(config) }),
      { username: config.FENGINE_USER, password: config.FENGINE_PASSWORD },
    );
    return engine;
  }

  async function writeState(datasetId: string, state: { error: string | null; isSynced: boolean }) {
    const counts = await countEngineSync(sql, datasetId);
    await db.dataset.updateMany({
      where: { id: datasetId },
      data: {
        engineSyncPending: counts.pending,
        engineSyncRejected: counts.rejected,
        engineSyncError: state.error?.slice(0, ERROR_MAX) ?? null,
        ...(state.isSynced ? { engineSyncedAt: new Date() } : {}),
      },
    });
  }

  async function importRowsOf(
    dataset: {
      id: string;
      userId: string;
      entity: EngineEntity;
      fields: { id: string; name: string; type: ValueType }[];
    },
    rows: PendingEngineRow[],
    target: SignedInEngine,
  ): Promise<{ created: number; updated: number; rejected: number }> {
    const toSend: { row: PendingEngineRow; importRow: EngineImportRow }[] = [];
    const settled: { rowId: string; version: number; rejection: string | null }[] = [];
    for (const row of rows) {
      const values: EngineImportRow['values'] = {};
      let rejection: string | null = null;
      for (const field of dataset.fields) {
        const value = await importValue(row.values[field.id], field.type, dataset.userId, deps);
        if (value !== null && typeof value === 'object' && 'rejection' in value) rejection = value.rejection;
        else values[field.name] = value;
      }
      if (rejection) settled.push({ rowId: row.rowId, version: row.version, rejection });
      else toSend.push({ row, importRow: { externalId: `${dataset.id}:${row.rowId}`, values } });
    }
    let answer = { created: 0, updated: 0, rejected: [] as { externalId: string; reason: string }[] };
    if (toSend.length > 0)
      answer = await target.importRows(
        dataset.entity,
        toSend.map((item) => item.importRow),
      );
    const reasons = new Map(answer.rejected.map((item) => [item.externalId, item.reason]));
    for (const { row, importRow } of toSend)
      settled.push({
        rowId: row.rowId,
        version: row.version,
        rejection: reasons.get(importRow.externalId) ?? null,
      });
    await settleEngineRows(sql, dataset.id, settled);
    return {
      created: answer.created,
      updated: answer.updated,
      rejected: settled.filter((s) => s.rejection).length,
    };
  }

  return async (
    job: Job,
  ): Promise<{ created: number; updated: number; rejected: number } | { skipped: string }> => {
    const { datasetId } = fengineImportPayloadSchema.parse(job.data);
    const jobLog = log.child({ jobId: job.id, datasetId });
    const found = await db.dataset.findUnique({
      where: { id: datasetId },
      select: {
        id: true,
        userId: true,
        type: true,
        fields: { orderBy: { sequence: 'asc' }, select: { id: true, name: true, type: true } },
      },
    });
    if (!found || !isEngineDatasetType(found.type)) return { skipped: 'not an engine dataset' };
    const target = signedInEngine();
    if (!target) {
      await writeState(datasetId, { error: ENGINE_MESSAGES.notConfigured, isSynced: false });
      return { skipped: 'no engine configured' };
    }
    // The contract's fields, read from the dataset's own (same names: step 1 cannot change them).
    const byName = new Map(found.fields.map((field) => [field.name, field]));
    const fields = ENGINE_DATASET_ENTITIES[found.type].fields.flatMap(
      (field) => byName.get(field.name) ?? [],
    );
    const dataset = {
      id: found.id,
      userId: found.userId,
      entity: ENGINE_DATASET_ENTITIES[found.type].entity,
      fields,
    };

    const totals = { created: 0, updated: 0, rejected: 0 };
    let afterRowId = '0';
    try {
      for (;;) {
        const rows = await pendingEngineRows(sql, datasetId, fields, {
          afterRowId,
          limit: ENGINE_IMPORT_BATCH_MAX,
        });
        if (rows.length === 0) break;
        const result = await importRowsOf(dataset, rows, target);
        totals.created += result.created;
        totals.updated += result.updated;
        totals.rejected += result.rejected;
        afterRowId = rows[rows.length - 1]?.rowId ?? afterRowId;
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await writeState(datasetId, { error: message, isSynced: false });
      jobLog.warn({ err: error, attempt: job.attemptsMade + 1 }, 'F-engine import failed; the rows wait');
      // A wrong answer or a refused address will not mend in seconds: the sweep tries again later.
      if (error instanceof EngineError && !error.isTransient) throw new UnrecoverableError(message);
      throw error;
    }
    await writeState(datasetId, { error: null, isSynced: true });
    jobLog.info(totals, 'F-engine import done');
    return totals;
  };
}

/**
 * The sweep: every engine dataset with rows still waiting gets an import queued, unless one waits
 * or runs already. Rows whose job gave up (the engine was away longer than its tries), whose job
 * was lost with Redis, or that a fill wrote while its dataset's job was running arrive this way.
 */
export function createEngineImportSweep(deps: {
  db: PrismaClient;
  queue: Queue;
  config: Pick<WorkerConfig, 'FENGINE_IMPORT_RETRY_SECONDS'>;
  log: Logger;
}) {
  return async (): Promise<{ queued: number }> => {
    const datasets = await deps.db.dataset.findMany({
      where: { type: { not: 'CUSTOM' }, engineSyncPending: { gt: 0 } },
      select: { id: true },
    });
    let queued = 0;
    for (const { id } of datasets) {
      const existing = await deps.queue.getJob(fengineImportJobId(id));
      const state = existing ? await existing.getState() : 'missing';
      if (state === 'failed' || state === 'completed') await existing?.remove();
      else if (state !== 'missing' && state !== 'unknown') continue;
      await queueEngineImport(deps.queue, id, deps.config);
      queued += 1;
    }
    if (queued > 0) deps.log.info({ queued }, 'queued engine datasets with rows waiting for the F-engine');
    return { queued };
  };
}
