import type { ApiKeyScope, PrismaClient } from '@pagewright/db';

const listed = {
  id: true,
  name: true,
  prefix: true,
  scope: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;

/** API keys (issue 26): stored by their SHA-256 only; every read but the key lookup is the owner's. */
export function createApiKeyRepository(db: PrismaClient) {
  return {
    create(data: {
      userId: string;
      name: string;
      prefix: string;
      keyHash: string;
      scope: ApiKeyScope;
      expiresAt: Date | null;
    }) {
      return db.apiKey.create({ data, select: listed });
    },
    /** Keys neither revoked nor expired at `now`. */
    countUsable(userId: string, now: Date) {
      return db.apiKey.count({
        where: { userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      });
    },
    listOwned(userId: string) {
      return db.apiKey.findMany({ where: { userId }, orderBy: { createdAt: 'desc' }, select: listed });
    },
    /** Revokes the caller's key (again is harmless); false when the caller has no such key. */
    async revokeOwned(userId: string, id: string, now: Date) {
      const key = await db.apiKey.findFirst({ where: { id, userId }, select: { revokedAt: true } });
      if (!key) return false;
      if (!key.revokedAt) await db.apiKey.update({ where: { id }, data: { revokedAt: now } });
      return true;
    },
    /** The key behind a hash, with whether its owner may still sign in: the bearer check's one query. */
    findByHash(keyHash: string) {
      return db.apiKey.findUnique({
        where: { keyHash },
        select: {
          id: true,
          userId: true,
          scope: true,
          expiresAt: true,
          revokedAt: true,
          lastUsedAt: true,
          user: { select: { enabled: true } },
        },
      });
    },
    touch(id: string, now: Date) {
      return db.apiKey.update({ where: { id }, data: { lastUsedAt: now }, select: { id: true } });
    },
  };
}
export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
