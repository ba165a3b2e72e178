import { createHash } from 'node:crypto';
import {
  Prisma,
  createFileStorage,
  fillDatasetsOfRun,
  type DatasetRowChanges,
  type FileMeta,
  type FileStorage,
  type PrismaClient,
  type RunStatus,
} from '@pagewright/db';
import { AUTOMATION_ERROR_BASE, MESSAGES, type Investor, type PageElementArea } from '@pagewright/shared';
import type { KeptFile, StepRecord } from '@pagewright/automation';
import { flowActionInclude } from './load-flow.js';

export interface FileToStore {
  name: string;
  mimeType: string;
  content: Buffer;
}

export interface StepToStore {
  sequence: number;
  actionId: string | null;
  actionType: Prisma.RunStepUncheckedCreateInput['actionType'];
  label: string | null;
  pageUrl: string;
  timestamp: Date;
  value: Prisma.InputJsonValue;
  errorMessage: string | null;
  locatedBy?: Prisma.InputJsonValue | undefined;
  normalizedHtml?: string | null | undefined;
  pageScreenshot?: FileToStore | undefined;
  elementScreenshot?: FileToStore | undefined;
  file?: FileToStore | undefined;
  /** GET_TABLE: the file of each FILE cell, with its row and column. */
  tableFiles?: (FileToStore & { row: number; column: number })[] | undefined;
}

const JPEG = 'image/jpeg';

/**
 * What a run keeps of one step the engine recorded: its pictures (named `<filePrefix>-step-N-…`),
 * the one file of GET_FILE / GET_IMAGE, and the file of every FILE cell of a GET_TABLE.
 */
export function stepToStore(
  step: StepRecord,
  keptFiles: readonly KeptFile[],
  about: { filePrefix: string; actionId: string | null; label: string | null },
): StepToStore {
  const picture = (content: Buffer | undefined, kind: 'page' | 'element') =>
    content && { name: `${about.filePrefix}-step-${step.sequence}-${kind}.jpg`, mimeType: JPEG, content };
  const file = keptFiles.find((kept) => !kept.cell);
  return {
    sequence: step.sequence,
    actionId: about.actionId,
    actionType: step.type,
    label: about.label,
    pageUrl: step.pageUrl,
    timestamp: new Date(step.timestamp),
    value: step.value,
    errorMessage: step.error?.originalMessage ?? null,
    ...(step.locatedBy ? { locatedBy: step.locatedBy } : {}),
    normalizedHtml: step.normalizedHtml ?? null,
    pageScreenshot: picture(step.pageScreenshot, 'page'),
    elementScreenshot: picture(step.elementScreenshot, 'element'),
    file: file && { name: file.fileName, mimeType: file.mimeType, content: file.content },
    tableFiles: keptFiles.flatMap((kept) =>
      kept.cell
        ? [{ name: kept.fileName, mimeType: kept.mimeType, content: kept.content, ...kept.cell }]
        : [],
    ),
  };
}

export interface RunEnd {
  status: Exclude<RunStatus, 'EXECUTING'>;
  errorCode?: number | undefined;
  errorMessage?: string | undefined;
  errorSequence?: number | undefined;
  /** The browser the run went to ("local" or a browser host's name). */
  browserName?: string | undefined;
}

export interface AskToStore {
  runId: string;
  userId: string;
  actionId: string | null;
  actionType: Prisma.PendingAskUncheckedCreateInput['actionType'];
  label: string | null;
  questionText: string | null;
  elementScreenshot?: FileToStore | undefined;
  /** Multi-step asks: the phase and the question area's selector. */
  askMultiStepDto: { builderStep: 'USER_RESPONSE'; askDataContentSelector: string } | null;
  /** ASK_RECAPTCHA: the areas offered on the picture. */
  normalizedElements: PageElementArea[] | null;
  /** ASK_F_ENGINE_INVESTOR: the investors offered (managementDTO.investors). */
  investors?: Investor[] | null | undefined;
  expiresAt: Date;
}

/** A new round of an ASK_RECAPTCHA: the widget's fresh picture and areas, and a new deadline. */
export interface AskRefresh {
  userId: string;
  elementScreenshot?: FileToStore | undefined;
  normalizedElements: PageElementArea[];
  expiresAt: Date;
}

/** The pictures a run stored, by the SHA-256 of their bytes: the file of each. */
export type RunPictures = Map<string, string>;

function fileMeta(userId: string, file: FileToStore): FileMeta {
  return { userId, name: file.name, mimeType: file.mimeType };
}

/**
 * A successful run's rows go into its datasets in the transaction that ends it. Rows that cannot be
 * written (a dataset changed under the run) do not undo the run's end: they are rolled back to a
 * savepoint and the run ends ERROR saying so, so the run is never left EXECUTING. Answers also the
 * engine datasets left with rows waiting for the F-engine (their import is queued after the commit).
 */
async function fillDatasets(
  tx: Prisma.TransactionClient,
  runId: string,
  extractorId: string,
  end: RunEnd,
): Promise<{ end: RunEnd; pendingEngineDatasetIds: string[]; changes: DatasetRowChanges[] }> {
  await tx.$executeRaw`SAVEPOINT dataset_fill`;
  try {
    const { pendingEngineDatasetIds, changes } = await fillDatasetsOfRun(tx, { id: runId, extractorId });
    await tx.$executeRaw`RELEASE SAVEPOINT dataset_fill`;
    return { end, pendingEngineDatasetIds, changes };
  } catch (error) {
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT dataset_fill`;
    const failed: RunEnd = {
      status: 'ERROR',
      errorCode: AUTOMATION_ERROR_BASE + 13,
      errorMessage: `${MESSAGES['dataset.fill.error']} (${error instanceof Error ? error.message.slice(0, 300) : 'unknown error'})`,
    };
    return { end: failed, pendingEngineDatasetIds: [], changes: [] };
  }
}

/** How long a run's end may wait to begin (a pool connection) and to commit. */
const RUN_END_TRANSACTION = { maxWait: 10_000, timeout: 60_000 } as const;

/** What the run store tells its worker once a run's end has committed. */
export interface RunStoreHooks {
  /** A run left rows waiting for the F-engine in these engine datasets: queue their import. */
  onEngineRowsPending?: (datasetIds: readonly string[]) => Promise<void>;
  /**
   * A run ended (its end committed), with the rows it wrote per dataset: its webhooks and change
   * alerts are queued. A failure here is the hook's own to log; the run's end stands.
   */
  onRunEnded?: (runId: string, end: RunEnd, datasetChanges: readonly DatasetRowChanges[]) => Promise<void>;
}

/**
 * The worker's reads and writes of runs, their steps and files (the worker's repository). Files go
 * through `files` (the API reads them back through the same store).
 */
export function createRunStore(
  db: PrismaClient,
  files: FileStorage = createFileStorage(db),
  hooks: RunStoreHooks = {},
) {
  /** One step's rows: its files first, then the step pointing at them, then its table's files. */
  async function saveOne(
    tx: Prisma.TransactionClient,
    runId: string,
    userId: string,
    step: StepToStore,
    pictures: RunPictures,
    storedNow: Map<string, string>,
  ): Promise<void> {
    const store = async (file: FileToStore | undefined) => {
      if (!file) return null;
      return files.put(file.content, fileMeta(userId, file), tx);
    };
    // A step that only reads shows the picture of the step before it: the same bytes are kept once.
    const storePicture = async (file: FileToStore | undefined) => {
      if (!file) return null;
      const digest = createHash('sha256').update(file.content).digest('base64');
      const known = pictures.get(digest) ?? storedNow.get(digest);
      if (known) return known;
      const id = await store(file);
      if (id) storedNow.set(digest, id);
      return id;
    };
    const created = await tx.runStep.create({
      select: { id: true },
      data: {
        runId,
        sequence: step.sequence,
        actionId: step.actionId,
        actionType: step.actionType,
        label: step.label,
        pageUrl: step.pageUrl,
        timestamp: step.timestamp,
        value: step.value,
        errorMessage: step.errorMessage,
        ...(step.locatedBy ? { locatedBy: step.locatedBy } : {}),
        normalizedHtml: step.normalizedHtml ?? null,
        pageScreenshotFileId: await storePicture(step.pageScreenshot),
        elementScreenshotFileId: await storePicture(step.elementScreenshot),
        fileId: await store(step.file),
      },
    });
    for (const cellFile of step.tableFiles ?? []) {
      await tx.runStepFile.create({
        data: {
          runStepId: created.id,
          rowIndex: cellFile.row,
          columnIndex: cellFile.column,
          fileId: (await store(cellFile)) as string,
        },
      });
    }
  }

  /**
   * Steps with their screenshots and files, in one transaction: a run writes the steps that
   * finished while the previous write was under way together (one BEGIN/COMMIT, not one each).
   * `pictures` (one per run) remembers the pictures the run stored: a step whose picture has the
   * same bytes as an earlier one points at that file (docs/decisions.md).
   */
  async function saveSteps(
    runId: string,
    userId: string,
    steps: readonly StepToStore[],
    pictures: RunPictures = new Map(),
  ): Promise<void> {
    if (steps.length === 0) return;
    const storedNow = new Map<string, string>();
    await db.$transaction(async (tx) => {
      for (const step of steps) await saveOne(tx, runId, userId, step, pictures, storedNow);
    });
    // Only files whose transaction committed are pointed at again.
    for (const [digest, id] of storedNow) pictures.set(digest, id);
  }

  return {
    /** The run with its extractor's actions in sequence order; null when it no longer exists. */
    loadRun(runId: string) {
      return db.run.findUnique({
        where: { id: runId },
        include: {
          user: { select: { email: true, firstName: true } },
          bulkRunItem: { select: { id: true } },
          extractor: {
            select: {
              id: true,
              name: true,
              inputs: true,
              actions: { orderBy: { sequence: 'asc' }, include: flowActionInclude },
            },
          },
        },
      });
    },

    /** One step with its screenshots and file, in one transaction. */
    async saveStep(runId: string, userId: string, step: StepToStore): Promise<void> {
      await saveSteps(runId, userId, [step]);
    },
    saveSteps,
    /**
     * Ends a run still EXECUTING: run fields, the extractor's list status and last run, and the
     * error message the dashboard shows once; a SUCCESS also fills the extractor's datasets.
     * Answers how the run ended (an ERROR if its rows could not be written), or null when it had
     * already ended (another worker or the API's stopped-run sweep got there first).
     */
    async finishRun(runId: string, runEnd: RunEnd): Promise<RunEnd | null> {
      let end = runEnd;
      let pendingEngineDatasetIds: string[] = [];
      let datasetChanges: DatasetRowChanges[] = [];
      const ended = await db.$transaction(async (tx) => {
        const finishedAt = new Date();
        // Locked: the API's stopped-run sweep may end the same run meanwhile; one of the two waits.
        const [owner] = await tx.$queryRaw<{ status: RunStatus; extractorId: string }[]>`
          SELECT status, "extractorId" FROM "Run" WHERE id = ${runId}::uuid FOR UPDATE`;
        if (owner?.status !== 'EXECUTING') return null;
        // Runs of a bulk run end side by side: their dataset fills (keyed upserts) and the
        // extractor's status take turns per extractor.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`run-end:${owner.extractorId}`}))`;
        if (end.status === 'SUCCESS')
          ({
            end,
            pendingEngineDatasetIds,
            changes: datasetChanges,
          } = await fillDatasets(tx, runId, owner.extractorId, end));
        const updated = await tx.run.updateMany({
          where: { id: runId, status: 'EXECUTING' },
          data: {
            status: end.status,
            finishedAt,
            errorCode: end.errorCode ?? null,
            errorMessage: end.errorMessage ?? null,
            errorSequence: end.errorSequence ?? null,
            browserName: runEnd.browserName ?? null,
          },
        });
        if (updated.count === 0) return null;
        const run = owner;
        const othersExecuting = await tx.run.count({
          where: { extractorId: run.extractorId, status: 'EXECUTING', id: { not: runId } },
        });
        await tx.extractor.update({
          where: { id: run.extractorId },
          // The list shows EXECUTING while another run of a bulk run still goes.
          data: { status: othersExecuting > 0 ? 'EXECUTING' : end.status, lastRunAt: finishedAt },
        });
        if (end.status === 'ERROR' && end.errorMessage) {
          await tx.extractorErrorMessage.create({
            data: {
              extractorId: run.extractorId,
              runId,
              message: end.errorMessage,
              errorCode: end.errorCode ?? null,
              actionSequence: end.errorSequence ?? null,
            },
          });
        }
        return end;
        // A run's end waits its turn behind its bulk run's other ends and fills datasets: Prisma's
        // 5 s default would fail a run's end on a busy machine.
      }, RUN_END_TRANSACTION);
      // After the commit: a queue that is away loses no row (the rows stay pending for the sweep).
      if (ended && pendingEngineDatasetIds.length > 0)
        await hooks.onEngineRowsPending?.(pendingEngineDatasetIds);
      if (ended) await hooks.onRunEnded?.(runId, ended, datasetChanges);
      return ended;
    },

    /** The answer saved for an action ("save for next time"), sealed; null when there is none. */
    findSavedSecret(userId: string, actionId: string) {
      return db.savedSecret.findFirst({
        where: { userId, actionId },
        select: { ciphertext: true, iv: true, authTag: true },
      });
    },

    /** A PENDING ask with its element screenshot (as a StoredFile), in one transaction. */
    async createPendingAsk(ask: AskToStore): Promise<string> {
      return db.$transaction(async (tx) => {
        const screenshotId = ask.elementScreenshot
          ? await files.put(ask.elementScreenshot.content, fileMeta(ask.userId, ask.elementScreenshot), tx)
          : null;
        const created = await tx.pendingAsk.create({
          data: {
            runId: ask.runId,
            userId: ask.userId,
            actionId: ask.actionId,
            actionType: ask.actionType,
            label: ask.label?.slice(0, 1024) ?? null,
            questionText: ask.questionText,
            elementScreenshotFileId: screenshotId,
            askMultiStepDto: ask.askMultiStepDto ?? Prisma.DbNull,
            normalizedElements: ask.normalizedElements ?? Prisma.DbNull,
            investors: ask.investors ?? Prisma.DbNull,
            status: 'PENDING',
            expiresAt: ask.expiresAt,
          },
          select: { id: true },
        });
        return created.id;
      });
    },

    /** Replaces a PENDING ask's picture and areas (the previous picture is deleted). */
    async refreshPendingAsk(askId: string, refresh: AskRefresh): Promise<void> {
      await db.$transaction(async (tx) => {
        const previous = await tx.pendingAsk.findUnique({
          where: { id: askId },
          select: { elementScreenshotFileId: true },
        });
        const screenshotId = refresh.elementScreenshot
          ? await files.put(
              refresh.elementScreenshot.content,
              fileMeta(refresh.userId, refresh.elementScreenshot),
              tx,
            )
          : null;
        const updated = await tx.pendingAsk.updateMany({
          where: { id: askId, status: 'PENDING' },
          data: {
            elementScreenshotFileId: screenshotId,
            normalizedElements: refresh.normalizedElements,
            expiresAt: refresh.expiresAt,
          },
        });
        // An ask answered meanwhile keeps the picture it was answered on; the new one goes.
        const unused = updated.count === 1 ? previous?.elementScreenshotFileId : screenshotId;
        if (unused) await files.delete([unused], tx);
      });
    },

    /** Ends a PENDING ask; the answer itself is never stored here. */
    async endPendingAsk(askId: string, status: 'ANSWERED' | 'CANCELED' | 'EXPIRED'): Promise<void> {
      await db.pendingAsk.updateMany({
        where: { id: askId, status: 'PENDING' },
        data: { status, ...(status === 'EXPIRED' ? {} : { answeredAt: new Date() }) },
      });
    },

    findRunOwner(runId: string) {
      return db.run.findUnique({ where: { id: runId }, select: { userId: true, extractorId: true } });
    },
  };
}
export type RunStore = ReturnType<typeof createRunStore>;
