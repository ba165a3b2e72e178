import { createFileStorage, type FileStorage, type PrismaClient } from '@pagewright/db';

/** Runs, their steps and stored files (read through `files`); every read is scoped to the owner. */
export function createRunRepository(db: PrismaClient, files: FileStorage = createFileStorage(db)) {
  return {
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
    /** The inputs an extractor of the caller declares (null: not the caller's). */
    findOwnedExtractorInputs(userId: string, extractorId: string) {
      return db.extractor.findFirst({ where: { id: extractorId, userId }, select: { inputs: true } });
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
    /** The locator a fallback found for a step of the caller's run, and the action it belongs to. */
    findOwnedStepLocator(userId: string, runId: string, sequence: number) {
      return db.runStep.findFirst({
        where: { runId, sequence, run: { userId } },
        orderBy: { timestamp: 'desc' },
        select: { actionId: true, locatedBy: true },
      });
    },
    /** Makes a selector the action's own (only an action of the caller's extractors). */
    async adoptLocator(userId: string, actionId: string, selectorValue: string, xpathValue: string | null) {
      const updated = await db.extractorAction.updateMany({
        where: { id: actionId, extractor: { userId } },
        data: { selectorType: 'CSS', selectorValue, xpathValue },
      });
      return updated.count > 0;
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
