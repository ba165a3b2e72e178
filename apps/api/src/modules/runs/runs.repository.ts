import { randomUUID } from 'node:crypto';
import { createFileStorage, type FileStorage, type PrismaClient, type RunStatus } from '@pagewright/db';

/** Runs, their steps and stored files (read through `files`); every read is scoped to the owner. */
export function createRunRepository(db: PrismaClient, files: FileStorage = createFileStorage(db)) {
  return {
    /** The caller's extractor with how many saved actions it has (a never-saved draft has none). */
    findOwnedExtractor(userId: string, id: string) {
      return db.extractor.findFirst({
        where: { id, userId },
        select: { id: true, status: true, _count: { select: { actions: true } } },
      });
    },
    hasPendingAsk(userId: string, extractorId: string) {
      return db.pendingAsk
        .count({ where: { userId, status: 'PENDING', run: { extractorId } } })
        .then((count) => count > 0);
    },
    /**
     * Marks the extractor EXECUTING and creates its run in one transaction; undefined when a run is
     * already executing. The conditional update holds the row lock, so two Execute clicks at once
     * cannot both start a run.
     */
    startManualRun(userId: string, extractorId: string) {
      return db.$transaction(async (tx) => {
        const executing = await tx.run.count({ where: { extractorId, status: 'EXECUTING' } });
        if (executing > 0) return undefined;
        const claimed = await tx.extractor.updateMany({
          where: { id: extractorId, userId, OR: [{ status: null }, { status: { not: 'EXECUTING' } }] },
          data: { status: 'EXECUTING' },
        });
        if (claimed.count === 0) return undefined;
        // The run id is also its job id, known before the job exists: a run row always names its
        // job, so the API's stopped-run sweep can tell a lost job from one not yet queued.
        const id = randomUUID();
        return tx.run.create({
          data: { id, jobId: id, extractorId, userId, status: 'EXECUTING', trigger: 'MANUAL' },
        });
      });
    },
    /**
     * Queued runs (they have a job; a builder's validation run has none) still EXECUTING that
     * started before `startedBefore`: the stopped-run sweep's one query.
     */
    executingQueuedRuns(startedBefore: Date) {
      return db.run.findMany({
        where: { status: 'EXECUTING', startedAt: { lt: startedBefore }, jobId: { not: null } },
        select: { id: true, jobId: true, userId: true, extractorId: true },
      });
    },
    /**
     * Ends a run ERROR with that code and message, with its extractor's status and error message,
     * in one transaction; false when the run had already ended.
     */
    endRunInError(runId: string, errorCode: number, errorMessage: string) {
      return db.$transaction(async (tx) => {
        const finishedAt = new Date();
        const updated = await tx.run.updateMany({
          where: { id: runId, status: 'EXECUTING' },
          data: { status: 'ERROR', finishedAt, errorCode, errorMessage },
        });
        if (updated.count === 0) return false;
        const run = await tx.run.findUniqueOrThrow({ where: { id: runId }, select: { extractorId: true } });
        await tx.extractor.update({
          where: { id: run.extractorId },
          data: { status: 'ERROR', lastRunAt: finishedAt },
        });
        await tx.extractorErrorMessage.create({
          data: { extractorId: run.extractorId, runId, message: errorMessage, errorCode },
        });
        return true;
      });
    },
    /**
     * Takes back a run that could not be queued: Execute was refused, so no run is left behind and
     * the extractor gets back the status it had.
     */
    withdrawRun(runId: string, extractorId: string, previousStatus: RunStatus | null) {
      return db.$transaction([
        db.run.delete({ where: { id: runId } }),
        db.extractor.updateMany({
          where: { id: extractorId, status: 'EXECUTING' },
          data: { status: previousStatus },
        }),
      ]);
    },
    /** The run and its steps; a step's normalized HTML (up to 2 MB) is only flagged, not read. */
    async findOwnedRun(userId: string, runId: string) {
      const run = await db.run.findFirst({
        where: { id: runId, userId },
        include: {
          steps: {
            orderBy: [{ sequence: 'asc' }, { timestamp: 'asc' }],
            omit: { normalizedHtml: true },
            include: {
              file: { select: { name: true } },
              tableFiles: {
                orderBy: [{ rowIndex: 'asc' }, { columnIndex: 'asc' }],
                select: { rowIndex: true, columnIndex: true, file: { select: { name: true } } },
              },
            },
          },
        },
      });
      if (!run) return null;
      const withHtml = await db.runStep.findMany({
        where: { runId, normalizedHtml: { not: null } },
        select: { id: true },
      });
      const hasHtml = new Set(withHtml.map((step) => step.id));
      return {
        ...run,
        steps: run.steps.map((step) => ({ ...step, hasNormalizedHtml: hasHtml.has(step.id) })),
      };
    },
    /** The latest step of that sequence in the caller's run, with the ids of its files. */
    findOwnedStep(userId: string, runId: string, sequence: number) {
      return db.runStep.findFirst({
        where: { runId, sequence, run: { userId } },
        orderBy: { timestamp: 'desc' },
        select: {
          pageScreenshotFileId: true,
          elementScreenshotFileId: true,
          fileId: true,
          normalizedHtml: true,
        },
      });
    },
    /** The file of one FILE cell of a GET_TABLE step (the latest step of that sequence). */
    async findOwnedCellFileId(userId: string, runId: string, sequence: number, row: number, column: number) {
      const step = await db.runStep.findFirst({
        where: { runId, sequence, run: { userId } },
        orderBy: { timestamp: 'desc' },
        select: { tableFiles: { where: { rowIndex: row, columnIndex: column }, select: { fileId: true } } },
      });
      return step?.tableFiles[0]?.fileId ?? null;
    },
    findOwnedFile(userId: string, fileId: string) {
      return files.get(fileId, userId);
    },
  };
}
export type RunRepository = ReturnType<typeof createRunRepository>;
