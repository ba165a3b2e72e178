import { createFileStorage, type FileStorage, type PrismaClient } from '@pagewright/db';

/** Extractor types whose sessions can be watched through a screen-share link. */
const NAVIGATOR_TYPES = ['NAVIGATOR', 'FENGINE_NAVIGATOR'] as const;

/**
 * Screen-share and download tokens (stored as hashes only), and what a live token may read: the
 * shared run of that navigator, its steps and their files, all within the navigator owner's rows.
 */
export function createScreenShareRepository(db: PrismaClient, files: FileStorage = createFileStorage(db)) {
  return {
    findOwnedNavigator(userId: string, extractorId: string) {
      return db.extractor.findFirst({
        where: { id: extractorId, userId, extractorType: { in: [...NAVIGATOR_TYPES] } },
        select: {
          id: true,
          name: true,
          viewerEmail: true,
          user: { select: { firstName: true, lastName: true } },
        },
      });
    },
    isRunOfExtractor(userId: string, extractorId: string, runId: string) {
      return db.run.count({ where: { id: runId, extractorId, userId } }).then((count) => count > 0);
    },
    createScreenShareToken(data: {
      extractorId: string;
      runId: string | null;
      tokenHash: string;
      expiresAt: Date;
    }) {
      return db.screenShareToken.create({ data, select: { id: true } });
    },
    /** Withdraws every link of the caller's navigator that still works; how many were withdrawn. */
    revokeScreenShareTokens(userId: string, extractorId: string, now: Date) {
      return db.screenShareToken
        .updateMany({
          where: { extractorId, extractor: { userId }, revokedAt: null, expiresAt: { gt: now } },
          data: { revokedAt: now },
        })
        .then((result) => result.count);
    },
    /** The token's share if it is neither expired nor revoked, with the navigator and its owner. */
    findLiveScreenShare(tokenHash: string, now: Date) {
      return db.screenShareToken.findFirst({
        where: {
          tokenHash,
          revokedAt: null,
          expiresAt: { gt: now },
          extractor: { extractorType: { in: [...NAVIGATOR_TYPES] } },
        },
        select: {
          runId: true,
          createdAt: true,
          extractor: {
            select: {
              id: true,
              name: true,
              userId: true,
              extractorType: true,
              user: { select: { firstName: true, lastName: true } },
            },
          },
        },
      });
    },
    /** The navigator's latest run, for a link minted before its run existed. */
    findLatestRunId(ownerId: string, extractorId: string) {
      return db.run
        .findFirst({
          where: { extractorId, userId: ownerId },
          orderBy: { startedAt: 'desc' },
          select: { id: true },
        })
        .then((run) => run?.id ?? null);
    },
    /** The run and its steps; a step's normalized HTML (up to 2 MB) is only flagged, not read. */
    async findSharedRun(ownerId: string, extractorId: string, runId: string) {
      const run = await db.run.findFirst({
        where: { id: runId, extractorId, userId: ownerId },
        select: {
          status: true,
          errorMessage: true,
          startedAt: true,
          steps: {
            orderBy: [{ sequence: 'asc' }, { timestamp: 'asc' }],
            select: {
              id: true,
              sequence: true,
              actionType: true,
              label: true,
              pageUrl: true,
              timestamp: true,
              pageScreenshotFileId: true,
              fileId: true,
              file: { select: { name: true } },
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
    /** The latest step of that sequence in the shared run (a loop repeats a sequence). */
    findSharedStepFiles(ownerId: string, extractorId: string, runId: string, sequence: number) {
      return db.runStep.findFirst({
        where: { runId, sequence, run: { extractorId, userId: ownerId } },
        orderBy: { timestamp: 'desc' },
        select: { pageScreenshotFileId: true, fileId: true },
      });
    },
    findSharedStepHtml(ownerId: string, extractorId: string, runId: string, sequence: number) {
      return db.runStep
        .findFirst({
          where: { runId, sequence, run: { extractorId, userId: ownerId } },
          orderBy: { timestamp: 'desc' },
          select: { normalizedHtml: true },
        })
        .then((step) => step?.normalizedHtml ?? null);
    },
    findOwnedFile(ownerId: string, fileId: string) {
      return files.get(fileId, ownerId);
    },
    hasOwnedFileContent(ownerId: string, fileId: string) {
      return files.has(fileId, ownerId);
    },
    createFileDownloadToken(data: { fileId: string; tokenHash: string; expiresAt: Date }) {
      return db.fileDownloadToken.create({ data, select: { id: true } });
    },
    /**
     * Spends a download token and returns its file; null when unknown, expired or already spent.
     * The conditional update takes the row lock, so two requests at once cannot both download.
     */
    async claimFileDownload(tokenHash: string, now: Date) {
      const file = await db.$transaction(async (tx) => {
        const claimed = await tx.fileDownloadToken.updateMany({
          where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
          data: { usedAt: now },
        });
        if (claimed.count === 0) return null;
        const token = await tx.fileDownloadToken.findUnique({
          where: { tokenHash },
          select: { file: { select: { id: true, userId: true } } },
        });
        return token?.file ?? null;
      });
      return file ? files.get(file.id, file.userId) : null;
    },
  };
}
export type ScreenShareRepository = ReturnType<typeof createScreenShareRepository>;
