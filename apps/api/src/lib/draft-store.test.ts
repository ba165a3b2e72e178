import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { MESSAGES } from '@pagewright/shared';
import { createDraftStore } from './draft-store.js';

/** Drafts against the Redis of this machine, under a prefix of their own. */
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
const prefix = `pagewright-unit:draft-store:${randomUUID()}:`;
const key = `${prefix}draft`;
const store = createDraftStore(redis, {
  schema: z.object({ items: z.array(z.string()) }),
  ttlMs: 60_000,
  missing: () => new Error('no draft'),
  unreadable: () => new Error('unreadable'),
});
/** Another request's write, landing between a read and its write. */
const writeMeanwhile = (items: string[]) => store.put(key, { items });

afterEach(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
});
afterAll(() => redis.disconnect());

describe('the draft store', () => {
  it('changes the draft it read, and renews it', async () => {
    await store.put(key, { items: ['a'] });
    const first = await store.get(key);
    expect(await store.update(key, (draft) => ({ items: [...draft.items, 'b'] }))).toEqual({
      items: ['a', 'b'],
    });
    const second = await store.get(key);
    expect(second?.value).toEqual({ items: ['a', 'b'] });
    expect(second?.version).toBeGreaterThan(first?.version ?? Infinity);
    expect(await redis.pttl(key)).toBeGreaterThan(50_000);
  });

  it('runs a change again on the newer draft when another write came in between: both land', async () => {
    await store.put(key, { items: ['a'] });
    let runs = 0;
    const written = await store.update(key, async (draft) => {
      runs += 1;
      if (runs === 1) await writeMeanwhile([...draft.items, 'other tab']);
      return { items: [...draft.items, 'mine'] };
    });
    expect(runs).toBe(2);
    expect(written).toEqual({ items: ['a', 'other tab', 'mine'] });
    expect((await store.get(key))?.value).toEqual(written);
  });

  it('answers 409 in a sentence when the retry conflicts too, leaving the other write', async () => {
    await store.put(key, { items: ['a'] });
    const change = store.update(key, async (draft) => {
      await writeMeanwhile([...draft.items, 'other']);
      return { items: ['lost'] };
    });
    await expect(change).rejects.toMatchObject({
      statusCode: 409,
      message: MESSAGES['draft.changed.meanwhile'],
    });
    expect((await store.get(key))?.value).toEqual({ items: ['a', 'other', 'other'] });
  });

  it('says there is none when the draft ended, even between a read and its write', async () => {
    await expect(store.update(key, (draft) => draft)).rejects.toThrow('no draft');
    await store.put(key, { items: ['a'] });
    const change = store.update(key, async (draft) => {
      await store.drop(key);
      return draft;
    });
    await expect(change).rejects.toThrow('no draft');
    expect(await redis.exists(key)).toBe(0);
  });

  it('takes up a draft stored before versions (one JSON string), keeping it', async () => {
    await redis.set(key, JSON.stringify({ items: ['old'] }), 'PX', 60_000);
    expect(await store.get(key)).toEqual({ value: { items: ['old'] }, version: 0 });
    expect(await store.update(key, (draft) => ({ items: [...draft.items, 'new'] }))).toEqual({
      items: ['old', 'new'],
    });
  });

  it('drops the draft only if it is the one asked for', async () => {
    await store.put(key, { items: ['keep'] });
    await store.dropIf(key, (draft) => draft.items.includes('gone'));
    expect(await redis.exists(key)).toBe(1);
    await store.dropIf(key, (draft) => draft.items.includes('keep'));
    expect(await redis.exists(key)).toBe(0);
  });
});
