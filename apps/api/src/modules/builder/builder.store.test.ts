import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { BUILDER_MESSAGES, type BuilderRecord } from '@pagewright/shared';
import { UnreadableDraftError, createBuilderStore } from './builder.store.js';

/** The builder's record and locks against the Redis of this machine, under a prefix of their own. */
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
const prefix = `pagewright-unit:builder-store:${randomUUID()}:`;
const store = createBuilderStore(redis, prefix);
const userId = randomUUID();

const record = (overrides: Partial<BuilderRecord> = {}): BuilderRecord => ({
  extractorId: randomUUID(),
  extractorType: 'EXTRACTOR',
  actions: [],
  live: null,
  shareRunId: null,
  shareUrl: null,
  openedAt: new Date().toISOString(),
  state: 'NONE',
  engine: { managementDTO: null, fserviceDTO: null },
  inputs: [],
  ...overrides,
});

afterEach(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
});
afterAll(() => redis.disconnect());

describe('the builder record', () => {
  it('keeps the live page and the draft apart: writing one never undoes the other', async () => {
    const opened = record();
    await store.create(userId, opened);
    // A request that read the record before the page opened writes its draft afterwards.
    const staleCopy = { ...opened, shareUrl: 'edited' };
    expect(
      await store.setLive(userId, 'EXTRACTOR', opened.openedAt, { workerId: 'w1', sessionId: 's1' }),
    ).toBe(true);
    await store.put(userId, staleCopy);
    expect(await store.get(userId, 'EXTRACTOR')).toEqual({
      ...opened,
      shareUrl: 'edited',
      live: { workerId: 'w1', sessionId: 's1' },
    });
  });

  it('gives a builder one live page, and none to a builder opened again meanwhile', async () => {
    const first = record();
    await store.create(userId, first);
    expect(
      await store.setLive(userId, 'EXTRACTOR', first.openedAt, { workerId: 'w1', sessionId: 's1' }),
    ).toBe(true);
    expect(
      await store.setLive(userId, 'EXTRACTOR', first.openedAt, { workerId: 'w2', sessionId: 's2' }),
    ).toBe(false);
    const second = record({ openedAt: new Date(Date.now() + 1000).toISOString() });
    await store.create(userId, second);
    expect(
      await store.setLive(userId, 'EXTRACTOR', first.openedAt, { workerId: 'w1', sessionId: 's3' }),
    ).toBe(false);
    expect((await store.get(userId, 'EXTRACTOR'))?.live).toBeNull();
  });

  it('forgets a lost page only while it is still the builder’s page', async () => {
    const opened = record();
    await store.create(userId, opened);
    await store.setLive(userId, 'EXTRACTOR', opened.openedAt, { workerId: 'w1', sessionId: 's1' });
    await store.clearLive(userId, 'EXTRACTOR', 'another-session');
    expect((await store.get(userId, 'EXTRACTOR'))?.live).toEqual({ workerId: 'w1', sessionId: 's1' });
    await store.clearLive(userId, 'EXTRACTOR', 's1');
    expect((await store.get(userId, 'EXTRACTOR'))?.live).toBeNull();
  });

  it('tells a screen-share viewer which run the builder records and its page, changing nothing', async () => {
    const shareRunId = randomUUID();
    const opened = record({ extractorType: 'NAVIGATOR', shareRunId });
    await store.create(userId, opened);
    expect(await store.sharedLive(userId, 'NAVIGATOR')).toBeNull();
    await store.setLive(userId, 'NAVIGATOR', opened.openedAt, { workerId: 'w1', sessionId: 's1' });
    expect(await store.sharedLive(userId, 'NAVIGATOR')).toEqual({
      extractorId: opened.extractorId,
      shareRunId,
      live: { workerId: 'w1', sessionId: 's1' },
    });
    expect(await store.sharedLive(userId, 'EXTRACTOR')).toBeNull();
    // A draft whose actions no longer read is left for its owner's next call to set aside.
    const key = `${prefix}builder:${userId}:NAVIGATOR`;
    const raw = JSON.stringify({ ...opened, actions: [{ id: 'not-a-uuid' }] });
    await redis.hset(key, 'draft', raw);
    expect((await store.sharedLive(userId, 'NAVIGATOR'))?.shareRunId).toBe(shareRunId);
    expect(await redis.hget(key, 'draft')).toBe(raw);
  });

  it('reads a draft stored before the builder kept its state as NONE', async () => {
    const { state: _state, live: _live, ...before } = record();
    await redis.hset(`${prefix}builder:${userId}:EXTRACTOR`, 'draft', JSON.stringify(before));
    expect((await store.get(userId, 'EXTRACTOR'))?.state).toBe('NONE');
  });

  it('reads a record stored before the hash (one JSON string), keeping its page and expiry', async () => {
    const old = record({ live: { workerId: 'w1', sessionId: 's1' } });
    const key = `${prefix}builder:${userId}:EXTRACTOR`;
    await redis.set(key, JSON.stringify(old), 'EX', 3600);
    expect(await store.get(userId, 'EXTRACTOR')).toEqual(old);
    expect(await redis.type(key)).toBe('hash');
    expect(await redis.ttl(key)).toBeGreaterThan(3500);
    expect(await store.setLive(userId, 'EXTRACTOR', old.openedAt, { workerId: 'w2', sessionId: 's2' })).toBe(
      false,
    );
  });
});

describe('a stored draft that no longer reads', () => {
  it('is set aside for 7 days and refused, naming where it differs but none of its values', async () => {
    const key = `${prefix}builder:${userId}:EXTRACTOR`;
    const extractorId = randomUUID();
    const raw = JSON.stringify({
      ...record({ extractorId }),
      actions: [{ id: 'not-a-uuid', sealedSecret: { ciphertext: 'SECRET-CANARY' } }],
    });
    await redis.hset(key, 'draft', raw);
    const error = await store.get(userId, 'EXTRACTOR').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UnreadableDraftError);
    const unreadable = error as UnreadableDraftError;
    expect(unreadable).toMatchObject({ userId, extractorType: 'EXTRACTOR', extractorId });
    expect(unreadable.issues).toContain('actions.0.id: invalid_format');
    expect(JSON.stringify(unreadable.issues)).not.toContain('SECRET-CANARY');
    expect(await redis.get(unreadable.quarantineKey)).toBe(raw);
    expect(await redis.ttl(unreadable.quarantineKey)).toBeGreaterThan(6 * 24 * 3600);
    expect(await redis.exists(key)).toBe(0);
    expect(await store.get(userId, 'EXTRACTOR')).toBeNull();
  });
});

describe('the builder lock', () => {
  const lockKey = `${prefix}builder-lock:${userId}:EXTRACTOR`;

  it('is released only by its holder: a lock that lapsed and was taken stays with its new holder', async () => {
    await store.withLock(userId, 'EXTRACTOR', async () => {
      // The lock lapsed during the work and another request took it.
      await redis.set(lockKey, 'another-request', 'PX', 60_000);
    });
    expect(await redis.get(lockKey)).toBe('another-request');
  });

  it('refuses a draft write whose lock lapsed and was taken: the newer holder’s draft stays (issue 24, 8)', async () => {
    const opened = record();
    await store.create(userId, opened);
    const written = store.withLock(userId, 'EXTRACTOR', async () => {
      await store.put(userId, { ...opened, shareUrl: 'while held' });
      // The lock lapsed during the work; another request took it and wrote its own draft.
      await redis.set(lockKey, 'another-request', 'PX', 60_000);
      await redis.hset(
        `${prefix}builder:${userId}:EXTRACTOR`,
        'draft',
        JSON.stringify({ ...opened, live: undefined, shareUrl: 'newer' }),
      );
      await store.put(userId, { ...opened, shareUrl: 'stale' });
    });
    await expect(written).rejects.toMatchObject({
      code: 'CONFLICT',
      message: BUILDER_MESSAGES.draftLockLost,
    });
    expect((await store.get(userId, 'EXTRACTOR'))?.shareUrl).toBe('newer');
  });

  it('keeps a lock for long work, renewing it while the work runs', async () => {
    // Renewed every third of the TTL: only an event loop stalled for two thirds of it (1 s) would
    // lose the lock; 150 ms did on a busy machine. The work outlasts the TTL: it ends once the
    // lock's time to live went back up four times (about 2 s), and it never ran out meanwhile.
    const shortLocks = createBuilderStore(redis, prefix, { lockTtlMs: 1_500 });
    let lowest = Number.POSITIVE_INFINITY;
    const isLost = await shortLocks.withLock(
      userId,
      'EXTRACTOR',
      async (lock) => {
        let renewals = 0;
        let last = await redis.pttl(lockKey);
        await vi.waitFor(
          async () => {
            const ttl = await redis.pttl(lockKey);
            lowest = Math.min(lowest, ttl);
            if (ttl > last) renewals += 1;
            last = ttl;
            expect(renewals).toBeGreaterThanOrEqual(4);
          },
          { timeout: 15_000, interval: 50 },
        );
        expect(await redis.pttl(lockKey)).toBeGreaterThan(0);
        return lock.signal.aborted;
      },
      { keepAlive: true },
    );
    expect(lowest).toBeGreaterThan(0);
    expect(isLost).toBe(false);
    expect(await redis.exists(lockKey)).toBe(0);
  });

  it('stops the work of a kept lock, saying why, when a renewal finds the lock taken', async () => {
    const shortLocks = createBuilderStore(redis, prefix, { lockTtlMs: 300 });
    const reason = await shortLocks.withLock(
      userId,
      'EXTRACTOR',
      async (lock) => {
        await redis.set(lockKey, 'another-request', 'PX', 60_000);
        await new Promise((resolve) => lock.signal.addEventListener('abort', resolve, { once: true }));
        return lock.signal.reason as unknown;
      },
      { keepAlive: true },
    );
    expect(reason).toMatchObject({ code: 'CONFLICT', message: BUILDER_MESSAGES.lockLost });
    expect(await redis.get(lockKey)).toBe('another-request');
  });

  it('never deletes a lock taken between its holder finding it lapsing and releasing it', async () => {
    const shortLocks = createBuilderStore(redis, prefix, { lockTtlMs: 15 });
    const contender = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    let deletedUnderContender = 0;
    try {
      for (let round = 0; round < 150; round += 1) {
        let isContending = true;
        let contenderHolds = false;
        let contending: Promise<void> = Promise.resolve();
        await shortLocks.withLock(userId, 'EXTRACTOR', async () => {
          contending = (async () => {
            while (isContending && !contenderHolds)
              contenderHolds = (await contender.set(lockKey, 'contender', 'PX', 5_000, 'NX')) === 'OK';
          })();
          // Finish as the lock lapses: the release races the contender taking it.
          while (!contenderHolds && (await redis.pttl(lockKey)) > 1);
        });
        // The lock is free now (let go, or lapsed within its 15 ms): the contender gets it.
        try {
          await vi.waitUntil(() => contenderHolds, { timeout: 5_000, interval: 1 });
        } finally {
          isContending = false;
        }
        await contending;
        if (contenderHolds && (await redis.get(lockKey)) !== 'contender') deletedUnderContender += 1;
        await redis.del(lockKey);
      }
    } finally {
      contender.disconnect();
    }
    expect(deletedUnderContender).toBe(0);
  }, 60_000);
});
