import type pg from 'pg';
import type { PrismaClient } from '@pagewright/db';

/** Who is calling, as an access token's live session says: what requests carry, never a hash. */
export interface SessionCaller {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  enabled: boolean;
  tempPasswordSet: boolean;
  passwordChangedAt: Date;
  /** The session was started by an F-engine token (remote-engine mode). */
  startedByEngine: boolean;
  /** The session's absolute end (its family's expiresAt). */
  sessionEndsAt: Date;
}

/**
 * The session check every authenticated request makes, on node-postgres directly: through Prisma
 * the same query cost three to four times the CPU (query interpretation and result mapping), the
 * largest single cost of an authenticated request. Named, so each pooled connection parses and
 * plans it once. The timestamps are UTC without a zone, so they are compared and read as UTC,
 * whatever the connection's TimeZone.
 */
const LIVE_SESSION_CALLER = {
  name: 'live-session-caller',
  text: `SELECT u.id, u.email, u."firstName", u."lastName", u.enabled, u."tempPasswordSet",
                u."passwordChangedAt" AT TIME ZONE 'UTC' AS "passwordChangedAt", f."startedByEngine",
                f."expiresAt" AT TIME ZONE 'UTC' AS "sessionEndsAt"
         FROM "RefreshTokenFamily" f
         JOIN "User" u ON u.id = f."userId"
         WHERE f.id = $1::uuid AND f."userId" = $2::uuid
           AND f."revokedAt" IS NULL AND f."expiresAt" > now() AT TIME ZONE 'UTC'`,
};

/**
 * Refresh-token families (one per sign-in) and one-time login tokens. `onSessionChange` hears of
 * every committed write that ends a session, before the write's promise resolves (session caches).
 */
export function createSessionRepository(
  db: PrismaClient,
  sql: pg.Pool,
  onSessionChange: (userId: string) => Promise<void>,
) {
  return {
    /**
     * The user behind an access token while its session lives, in one query on two primary keys
     * (the family row, joined to its user): no row once the family is revoked (logout, replay,
     * password change) or past its end, so an access token dies with its session, not 15 min later.
     */
    async findLiveSessionCaller(userId: string, familyId: string): Promise<SessionCaller | null> {
      const { rows } = await sql.query<SessionCaller>({ ...LIVE_SESSION_CALLER, values: [familyId, userId] });
      return rows[0] ?? null;
    },
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
