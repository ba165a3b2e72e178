import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { BuilderRecord } from '@pagewright/shared';
import { createBuilderStore } from './builder.store.js';

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
