import type { PrismaClient } from '@pagewright/db';
import { purgeExpiredSessionsPayloadSchema } from '@pagewright/shared';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface PurgeResult {
  refreshTokenFamilies: number;
  loginTokens: number;
  unconfirmedUsers: number;
}

/**
 * Deletes sign-in sessions that ended (revoked or expired) more than `retentionDays` ago, spent or
 * expired login tokens, and sign-ups never confirmed in time. Rows of live sessions are untouched.
 */
export async function purgeExpiredSessions(
  db: PrismaClient,
  rawPayload: unknown,
  unconfirmedRetentionDays: number,
  now = new Date(),
): Promise<PurgeResult> {
  const { retentionDays } = purgeExpiredSessionsPayloadSchema.parse(rawPayload ?? {});
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const [families, loginTokens, unconfirmedUsers] = await db.$transaction([
    db.refreshTokenFamily.deleteMany({
      where: { OR: [{ revokedAt: { lt: cutoff } }, { expiresAt: { lt: cutoff } }] },
    }),
    db.loginToken.deleteMany({ where: { OR: [{ usedAt: { lt: cutoff } }, { expiresAt: { lt: cutoff } }] } }),
    db.user.deleteMany({
      where: {
        emailConfirmedAt: null,
        createdAt: { lt: new Date(now.getTime() - unconfirmedRetentionDays * DAY_MS) },
      },
    }),
  ]);
  return {
    refreshTokenFamilies: families.count,
    loginTokens: loginTokens.count,
    unconfirmedUsers: unconfirmedUsers.count,
  };
}
