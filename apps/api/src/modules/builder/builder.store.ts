import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  BUILDER_DRAFT_TTL_MS,
  BUILDER_MESSAGES,
  builderImageKey,
  builderRecordSchema,
  type BuilderRecord,
  type ExtractorType,
  type LiveSessionRef,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';

const DRAFT_TTL_MS = BUILDER_DRAFT_TTL_MS;
/** A request holds the builder at most this long (a validation renews it while it runs). */
const LOCK_TTL_MS = 60_000;
const LOCK_WAIT_MS = 10_000;
/** A kept lock is renewed three times per TTL: two renewals may fail before it lapses. */
const RENEWALS_PER_TTL = 3;
/** A draft that no longer reads is kept this long beside the builder, for someone to look at. */
const QUARANTINE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Opening a page waits up to 20 s for a worker (session-commands OPEN_TIMEOUT_MS): held longer. */
const OPEN_LOCK_TTL_MS = 30_000;
const OPEN_LOCK_WAIT_MS = 30_000;

export type ImageKind = 'page' | 'element';

/**
 * The record is a hash whose parts are written apart, so that no write undoes another: `draft`
 * (the record without its live session, changed under the builder's lock), `openedAt` (which
 * opening of the builder this is), `liveWorkerId` + `liveSessionId` (the page, set by whoever
 * opened it).
 */
const FIELD = {
  draft: 'draft',
  openedAt: 'openedAt',
  liveWorkerId: 'liveWorkerId',
  liveSessionId: 'liveSessionId',
} as const;

const draftSchema = builderRecordSchema.omit({ live: true });
/** What a screen-share viewer needs of a draft: which navigator and run the builder records. */
const sharedPartSchema = builderRecordSchema.pick({ extractorId: true, shareRunId: true });

/** Sets the live session only on the same opening of the builder, and only if it has none. */
const SET_LIVE = `
if redis.call('HGET', KEYS[1], '${FIELD.openedAt}') ~= ARGV[1] then return 0 end
if redis.call('HEXISTS', KEYS[1], '${FIELD.liveSessionId}') == 1 then return 0 end
redis.call('HSET', KEYS[1], '${FIELD.liveWorkerId}', ARGV[2], '${FIELD.liveSessionId}', ARGV[3])
return 1`;

/** Forgets the live session only if it is still the one that was lost. */
const CLEAR_LIVE = `
if redis.call('HGET', KEYS[1], '${FIELD.liveSessionId}') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], '${FIELD.liveWorkerId}', '${FIELD.liveSessionId}')
return 1`;

/**
 * Records written before the hash (one JSON string, live session inside) become hashes in place,
 * keeping their expiry and their page.
 */
const MIGRATE_STRING_RECORD = `
if redis.call('TYPE', KEYS[1]).ok ~= 'string' then return 0 end
local raw = redis.call('GET', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], '${FIELD.draft}', raw)
local ok, old = pcall(cjson.decode, raw)
if ok and type(old) == 'table' then
  if type(old.openedAt) == 'string' then redis.call('HSET', KEYS[1], '${FIELD.openedAt}', old.openedAt) end
  local live = old.live
  if type(live) == 'table' and type(live.workerId) == 'string' and type(live.sessionId) == 'string' then
    redis.call('HSET', KEYS[1], '${FIELD.liveWorkerId}', live.workerId, '${FIELD.liveSessionId}', live.sessionId)
  end
end
redis.call('PEXPIRE', KEYS[1], ttl > 0 and ttl or tonumber(ARGV[1]))
return 1`;

/**
 * Writes the draft only while the builder's lock is still the writer's (a fenced write): a request
 * whose lock lapsed mid-work (another request took it) must not write over that request's draft.
 * An empty token (a write outside the lock) writes as before.
 */
const PUT_DRAFT_IF_HOLDING = `
if ARGV[3] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], '${FIELD.draft}', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** Extends a lock only while it is still the caller's (compare-and-set). */
const RENEW_LOCK = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`;

/** Deletes a lock only while it is still the caller's: one that lapsed may be someone else's now. */
const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])`;

/** A lock held by `withLock`. */
export interface HeldLock {
  /**
   * Aborted when the lock is no longer held (with `keepAlive`: a renewal found it lapsed or
   * taken): the work must stop, another request may be changing the draft. The reason is an
   * AppError naming that.
   */
  signal: AbortSignal;
}

export interface BuilderStoreOptions {
  /** How long a lock lasts without renewal (tests shorten it). */
  lockTtlMs?: number;
}

/** A Lua script run by its SHA (loaded again after a Redis restart). */
function luaScript(redis: Redis, lua: string) {
  const sha = createHash('sha1').update(lua).digest('hex');
  return async (keys: string[], args: (string | number)[]): Promise<unknown> => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(lua, keys.length, ...keys, ...args);
    }
  };
}

/**
 * A stored draft that no longer reads (a deploy changed its shape beyond what MIGRATE_STRING_RECORD
 * knows): it was moved to `quarantineKey` and the builder is gone. Says where, never what.
 */
export class UnreadableDraftError extends Error {
  constructor(
    readonly userId: string,
    readonly extractorType: ExtractorType,
    readonly extractorId: string | null,
    readonly quarantineKey: string,
    /** Where the draft differs from the schema: paths and issue codes, no values. */
    readonly issues: string[],
  ) {
    super('The stored builder draft does not read');
    this.name = 'UnreadableDraftError';
  }
}

/** The draft, or where it does not read (issue paths and codes only: a draft holds secrets). */
function parseDraft(raw: string) {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { issues: ['(not JSON)'], extractorId: null };
  }
  const parsed = draftSchema.safeParse(json);
  if (parsed.success) return { draft: parsed.data };
  const extractorId =
    typeof json === 'object' && json !== null && 'extractorId' in json && typeof json.extractorId === 'string'
      ? json.extractorId
      : null;
  return {
    issues: parsed.error.issues
      .slice(0, 10)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.code}`),
    extractorId,
  };
}

const isWrongType = (error: unknown) => error instanceof Error && error.message.startsWith('WRONGTYPE');

/**
 * Where the builder keeps the caller's current draft (docs/automation-runtime.md "Builder
 * sessions"): one record per user and extractorType, the draft's screenshots beside it, a lock so
 * two tabs (or a double click) never interleave changes to one draft, and a lock of its own for
 * opening the live page, so two calls at once open one page.
 */
export function createBuilderStore(redis: Redis, keyPrefix: string, options: BuilderStoreOptions = {}) {
  const lockTtlMs = options.lockTtlMs ?? LOCK_TTL_MS;
  const recordKey = (userId: string, type: ExtractorType) => `${keyPrefix}builder:${userId}:${type}`;
  const lockKey = (userId: string, type: ExtractorType) => `${keyPrefix}builder-lock:${userId}:${type}`;
  const openLockKey = (userId: string, type: ExtractorType) =>
    `${keyPrefix}builder-open-lock:${userId}:${type}`;
  const quarantineKey = (userId: string, type: ExtractorType) =>
    `${keyPrefix}builder-quarantine:${userId}:${type}`;
  const imageKey = (userId: string, actionId: string, kind: ImageKind) =>
    builderImageKey(keyPrefix, userId, actionId, kind);
  const setLive = luaScript(redis, SET_LIVE);
  const clearLive = luaScript(redis, CLEAR_LIVE);
  const migrateStringRecord = luaScript(redis, MIGRATE_STRING_RECORD);
  const renewLock = luaScript(redis, RENEW_LOCK);
  const releaseLock = luaScript(redis, RELEASE_LOCK);
  const putDraftIfHolding = luaScript(redis, PUT_DRAFT_IF_HOLDING);
  /** The builder lock the current request holds (withLock), so that `put` can fence its write. */
  const heldBuilderLock = new AsyncLocalStorage<{ key: string; token: string }>();

  async function readFields(key: string): Promise<Record<string, string>> {
    try {
      return await redis.hgetall(key);
    } catch (error) {
      if (!isWrongType(error)) throw error;
      await migrateStringRecord([key], [DRAFT_TTL_MS]);
      return redis.hgetall(key);
    }
  }

  const draftJson = ({ live: _live, ...draft }: BuilderRecord) => JSON.stringify(draft);

  /**
   * Runs `work` holding `key`; waits up to `waitMs` for the holder to finish, then answers 409.
   * With `keepAlive` the lock is renewed while the work runs; `signal` aborts once it is lost.
   */
  async function holding<T>(
    key: string,
    ttlMs: number,
    waitMs: number,
    work: (lock: HeldLock, token: string) => Promise<T>,
    keepAlive = false,
  ): Promise<T> {
    const token = randomUUID();
    const deadline = Date.now() + waitMs;
    while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
      if (Date.now() > deadline) throw new AppError('CONFLICT', BUILDER_MESSAGES.busy);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const lost = new AbortController();
    let heldUntil = Date.now() + ttlMs;
    const renew = async () => {
      const attemptedAt = Date.now();
      try {
        if ((await renewLock([key], [token, ttlMs])) === 1) heldUntil = attemptedAt + ttlMs;
        else lost.abort(new AppError('CONFLICT', BUILDER_MESSAGES.lockLost));
      } catch {
        // Redis did not answer: the lock may still be ours until its TTL runs out.
        if (Date.now() >= heldUntil) lost.abort(new AppError('CONFLICT', BUILDER_MESSAGES.lockLost));
      }
    };
    const renewal = keepAlive
      ? setInterval(() => void renew(), Math.max(1, Math.floor(ttlMs / RENEWALS_PER_TTL)))
      : undefined;
    try {
      return await work({ signal: lost.signal }, token);
    } finally {
      clearInterval(renewal);
      await releaseLock([key], [token]);
    }
  }

  return {
    /**
     * The caller's builder of this type, or null when none is open. A draft that no longer reads is
     * moved aside (kept 7 days under builder-quarantine) and answers UnreadableDraftError.
     */
    async get(userId: string, type: ExtractorType): Promise<BuilderRecord | null> {
      const key = recordKey(userId, type);
      const fields = await readFields(key);
      const raw = fields[FIELD.draft];
      if (raw === undefined) return null;
      const parsed = parseDraft(raw);
      if (!parsed.draft) {
        const aside = quarantineKey(userId, type);
        await redis.multi().set(aside, raw, 'PX', QUARANTINE_TTL_MS).del(key).exec();
        throw new UnreadableDraftError(userId, type, parsed.extractorId, aside, parsed.issues);
      }
      const workerId = fields[FIELD.liveWorkerId];
      const sessionId = fields[FIELD.liveSessionId];
      return { ...parsed.draft, live: workerId && sessionId ? { workerId, sessionId } : null };
    },

    /**
     * Which navigator and run the builder records and its live page, for a screen-share viewer:
     * null without a live page. Read only: a draft that does not read is left for its owner's
     * next call to set aside.
     */
    async sharedLive(
      userId: string,
      type: ExtractorType,
    ): Promise<{ extractorId: string; shareRunId: string | null; live: LiveSessionRef } | null> {
      const [raw, workerId, sessionId] = await redis
        .hmget(recordKey(userId, type), FIELD.draft, FIELD.liveWorkerId, FIELD.liveSessionId)
        .catch((error: unknown) => {
          // A record written before the hash: its owner's next call migrates it.
          if (isWrongType(error)) return [null, null, null];
          throw error;
        });
      if (!raw || !workerId || !sessionId) return null;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return null;
      }
      const shared = sharedPartSchema.safeParse(json);
      return shared.success ? { ...shared.data, live: { workerId, sessionId } } : null;
    },

    /** A new opening of the builder: the record is replaced whole, without a live page. */
    async create(userId: string, record: BuilderRecord): Promise<void> {
      const key = recordKey(userId, record.extractorType);
      await redis
        .multi()
        .del(key)
        .hset(key, FIELD.draft, draftJson(record), FIELD.openedAt, record.openedAt)
        .pexpire(key, DRAFT_TTL_MS)
        .exec();
    },

    /**
     * Writes the draft (under the builder's lock); the live session, set apart, stays. A lock that
     * lapsed and was taken meanwhile refuses the write with 409: the newer holder's draft stays.
     */
    async put(userId: string, record: BuilderRecord): Promise<void> {
      const type = record.extractorType;
      const held = heldBuilderLock.getStore();
      const token = held?.key === lockKey(userId, type) ? held.token : '';
      const isWritten = await putDraftIfHolding(
        [recordKey(userId, type), lockKey(userId, type)],
        [draftJson(record), DRAFT_TTL_MS, token],
      );
      if (isWritten !== 1) throw new AppError('CONFLICT', BUILDER_MESSAGES.draftLockLost);
    },

    /**
     * Gives the builder opened at `openedAt` its live page; false when it has one already or was
     * closed or opened again meanwhile.
     */
    async setLive(
      userId: string,
      type: ExtractorType,
      openedAt: string,
      live: LiveSessionRef,
    ): Promise<boolean> {
      return (await setLive([recordKey(userId, type)], [openedAt, live.workerId, live.sessionId])) === 1;
    },

    /** Forgets a lost live page, unless another one has replaced it already. */
    async clearLive(userId: string, type: ExtractorType, sessionId: string): Promise<void> {
      await clearLive([recordKey(userId, type)], [sessionId]);
    },

    async remove(userId: string, type: ExtractorType): Promise<void> {
      await redis.del(recordKey(userId, type));
    },

    async putImage(userId: string, actionId: string, kind: ImageKind, jpeg: Buffer): Promise<void> {
      await redis.set(imageKey(userId, actionId, kind), jpeg, 'PX', DRAFT_TTL_MS);
    },

    async getImage(userId: string, actionId: string, kind: ImageKind): Promise<Buffer | null> {
      return redis.getBuffer(imageKey(userId, actionId, kind));
    },

    async dropImage(userId: string, actionId: string, kind: ImageKind): Promise<void> {
      await redis.del(imageKey(userId, actionId, kind));
    },

    /**
     * Runs `work` holding the builder's lock; waits up to 10 s for another request to finish, then
     * answers 409. `keepAlive` renews the lock for long work (a validation), which must stop when
     * `lock.signal` aborts.
     */
    async withLock<T>(
      userId: string,
      type: ExtractorType,
      work: (lock: HeldLock) => Promise<T>,
      { keepAlive = false }: { keepAlive?: boolean } = {},
    ): Promise<T> {
      const key = lockKey(userId, type);
      return holding(
        key,
        lockTtlMs,
        LOCK_WAIT_MS,
        (lock, token) => heldBuilderLock.run({ key, token }, () => work(lock)),
        keepAlive,
      );
    },

    /**
     * Runs `work` holding the lock on opening the builder's live page. Not the builder's lock: a
     * locked edit opens the page too, and page commands do not wait for edits.
     */
    async withOpenLock<T>(userId: string, type: ExtractorType, work: () => Promise<T>): Promise<T> {
      return holding(openLockKey(userId, type), OPEN_LOCK_TTL_MS, OPEN_LOCK_WAIT_MS, () => work());
    },
  };
}
export type BuilderStore = ReturnType<typeof createBuilderStore>;
