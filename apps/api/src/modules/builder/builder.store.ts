import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  BUILDER_MESSAGES,
  builderRecordSchema,
  type BuilderRecord,
  type ExtractorType,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';

/** A draft outlives its browser (closed when idle): unsaved work survives a lunch break. */
const DRAFT_TTL_SECONDS = 24 * 60 * 60;
/** A request holds the builder at most this long (a validation renews it while it runs). */
const LOCK_TTL_MS = 60_000;
const LOCK_WAIT_MS = 10_000;

export type ImageKind = 'page' | 'element';

/**
 * Where the builder keeps the caller's current draft (docs/automation-runtime.md "Builder
 * sessions"): one record per user and extractorType, the draft's screenshots beside it, and a
 * lock so two tabs (or a double click) never interleave changes to one draft.
 */
export function createBuilderStore(redis: Redis, keyPrefix: string) {
  const recordKey = (userId: string, type: ExtractorType) => `${keyPrefix}builder:${userId}:${type}`;
  const lockKey = (userId: string, type: ExtractorType) => `${keyPrefix}builder-lock:${userId}:${type}`;
  const imageKey = (userId: string, actionId: string, kind: ImageKind) =>
    `${keyPrefix}builder-image:${userId}:${actionId}:${kind}`;

  return {
    async get(userId: string, type: ExtractorType): Promise<BuilderRecord | null> {
      const raw = await redis.get(recordKey(userId, type));
      if (!raw) return null;
      const parsed = builderRecordSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    },

    async put(userId: string, record: BuilderRecord): Promise<void> {
      await redis.set(
        recordKey(userId, record.extractorType),
        JSON.stringify(record),
        'EX',
        DRAFT_TTL_SECONDS,
      );
    },

    async remove(userId: string, type: ExtractorType): Promise<void> {
      await redis.del(recordKey(userId, type));
    },

    async putImage(userId: string, actionId: string, kind: ImageKind, jpeg: Buffer): Promise<void> {
      await redis.set(imageKey(userId, actionId, kind), jpeg, 'EX', DRAFT_TTL_SECONDS);
    },

    async getImage(userId: string, actionId: string, kind: ImageKind): Promise<Buffer | null> {
      return redis.getBuffer(imageKey(userId, actionId, kind));
    },

    async dropImage(userId: string, actionId: string, kind: ImageKind): Promise<void> {
      await redis.del(imageKey(userId, actionId, kind));
    },

    /**
     * Runs `work` holding the builder's lock; waits up to 10 s for another request to finish, then
     * answers 409. `renew` extends the lock for long work (a validation).
     */
    async withLock<T>(
      userId: string,
      type: ExtractorType,
      work: (renew: () => Promise<void>) => Promise<T>,
    ): Promise<T> {
      const key = lockKey(userId, type);
      const token = randomUUID();
      const deadline = Date.now() + LOCK_WAIT_MS;
      while ((await redis.set(key, token, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK') {
        if (Date.now() > deadline) throw new AppError('CONFLICT', BUILDER_MESSAGES.busy);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const renew = async () => {
        if ((await redis.get(key)) === token) await redis.pexpire(key, LOCK_TTL_MS);
      };
      try {
        return await work(renew);
      } finally {
        // Only our own lock is released (it may have expired and been taken by someone else).
        if ((await redis.get(key)) === token) await redis.del(key);
      }
    },
  };
}
export type BuilderStore = ReturnType<typeof createBuilderStore>;
