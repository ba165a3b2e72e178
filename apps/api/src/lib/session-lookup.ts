import type pg from 'pg';

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
 * The read behind the session check of every request (plugins/auth.ts, through session-callers.ts):
 * here, not in the auth module, because the auth plugin needs it and plugins import no module.
 */
export function createSessionLookup(sql: pg.Pool) {
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
  };
}
export type SessionLookup = ReturnType<typeof createSessionLookup>;
