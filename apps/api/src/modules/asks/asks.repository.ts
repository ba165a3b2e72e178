import type { ExtractorType } from '@pagewright/shared';
import { createFileStorage, type FileStorage, type PrismaClient } from '@pagewright/db';
import type { SealedSecret } from '@pagewright/db';

/** Pending asks and saved answers; every read and write is scoped to the owner. */
export function createAskRepository(db: PrismaClient, files: FileStorage = createFileStorage(db)) {
  return {
    /** The caller's oldest PENDING, unexpired ask on an extractor of that type, with its picture. */
    async findOldestPending(userId: string, extractorType: ExtractorType, now: Date) {
      const ask = await db.pendingAsk.findFirst({
        where: {
          userId,
          status: 'PENDING',
          expiresAt: { gt: now },
          run: { extractor: { extractorType } },
        },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: {
          id: true,
          runId: true,
          actionId: true,
          actionType: true,
          label: true,
          questionText: true,
          saveOptionsFlag: true,
          askMultiStepDto: true,
          normalizedElements: true,
          investors: true,
          run: { select: { extractorId: true } },
          action: { select: { saveOptionsFlag: true } },
          elementScreenshotFileId: true,
        },
      });
      if (!ask) return null;
      const { elementScreenshotFileId, ...rest } = ask;
      const picture = elementScreenshotFileId ? await files.get(elementScreenshotFileId, userId) : null;
      return { ...rest, elementScreenshot: picture && { content: picture.content } };
    },

    findOwnedPending(userId: string, askId: string, now: Date) {
      return db.pendingAsk.findFirst({
        where: { id: askId, userId, status: 'PENDING', expiresAt: { gt: now } },
        select: { id: true, actionId: true, actionType: true, normalizedElements: true, investors: true },
      });
    },

    /**
     * Claims a PENDING ask for this answer (ANSWERED, or CANCELED for the cancel word): false when
     * another answer got there first. The answer itself is not stored.
     */
    async claim(
      userId: string,
      askId: string,
      status: 'ANSWERED' | 'CANCELED',
      saveOptionsFlag: boolean,
    ): Promise<boolean> {
      const claimed = await db.pendingAsk.updateMany({
        where: { id: askId, userId, status: 'PENDING' },
        data: { status, saveOptionsFlag, answeredAt: new Date() },
      });
      return claimed.count > 0;
    },

    saveSecret(userId: string, actionId: string, sealed: SealedSecret) {
      const data = {
        ciphertext: new Uint8Array(sealed.ciphertext),
        iv: new Uint8Array(sealed.iv),
        authTag: new Uint8Array(sealed.authTag),
      };
      return db.savedSecret.upsert({
        where: { actionId },
        create: { userId, actionId, ...data },
        update: { userId, ...data },
      });
    },
  };
}
export type AskRepository = ReturnType<typeof createAskRepository>;
