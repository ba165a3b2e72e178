import type { PrismaClient } from '@pagewright/db';

/**
 * Refresh-token families (one per sign-in) and one-time login tokens. `onSessionChange` hears of
 * every committed write that ends a session, before the write's promise resolves (session caches).
 */
export function createSessionRepository(
  db: PrismaClient,
  onSessionChange: (userId: string) => Promise<void>,
) {
  return {
    createFamilyWithToken(userId: string, tokenHash: string, expiresAt: Date, startedByEngine = false) {
      return db.refreshTokenFamily.create({
        data: { userId, expiresAt, startedByEngine, tokens: { create: { tokenHash, expiresAt } } },
      });
    },
    findTokenWithFamily(tokenHash: string) {
      return db.refreshToken.findUnique({ where: { tokenHash }, include: { family: true } });
    },
    /**
     * Marks a token used and adds its successor in one transaction. Returns false when another call
     * used it first, which counts as a replay.
     */
    async rotate(
      oldTokenId: string,
      familyId: string,
      newTokenHash: string,
      expiresAt: Date,
    ): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const used = await tx.refreshToken.updateMany({
          where: { id: oldTokenId, usedAt: null },
          data: { usedAt: new Date() },
        });
        if (used.count !== 1) return false;
        await tx.refreshToken.create({ data: { familyId, tokenHash: newTokenHash, expiresAt } });
        return true;
      });
    },
    addToken(familyId: string, tokenHash: string, expiresAt: Date) {
      return db.refreshToken.create({ data: { familyId, tokenHash, expiresAt } });
    },
    async revokeFamily(family: { id: string; userId: string }, reason: string): Promise<void> {
      await db.refreshTokenFamily.updateMany({
        where: { id: family.id, revokedAt: null },
        data: { revokedAt: new Date(), revokeReason: reason },
      });
      await onSessionChange(family.userId);
    },
    createLoginToken(userId: string, tokenHash: string, purpose: string, expiresAt: Date) {
      return db.loginToken.create({ data: { userId, tokenHash, purpose, expiresAt } });
    },
    /** Consumes a login token once; null when unknown, expired or already used. */
    async consumeLoginToken(tokenHash: string) {
      const token = await db.loginToken.findUnique({ where: { tokenHash } });
      if (!token || token.usedAt || token.expiresAt < new Date()) return null;
      const used = await db.loginToken.updateMany({
        where: { id: token.id, usedAt: null },
        data: { usedAt: new Date() },
      });
      return used.count === 1 ? token : null;
    },
  };
}
export type SessionRepository = ReturnType<typeof createSessionRepository>;
