import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase } from '@pagewright/db';
import { createTestDatabase, dropTestDatabase } from '@pagewright/db/test-support';
import { createSessionCallers, type SessionCallers } from './session-callers.js';
import { createSessionChanges } from './session-changes.js';
import { createSessionLookup, type SessionLookup } from './session-lookup.js';

/**
 * Two API processes' session caches, as two pairs of cache and change feed on this machine's real
 * Redis and PostgreSQL, in a database and under a key prefix of their own (the integration suite
 * proves the same through two API processes over HTTP).
 */
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let db: ReturnType<typeof createDatabase>['prisma'];
let pool: ReturnType<typeof createDatabase>['pool'];
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
const keyPrefix = `pagewright-unit:session-changes:${randomUUID()}:`;
const log = pino({ level: 'silent' });

interface ApiProcess {
  callers: SessionCallers;
  changes: ReturnType<typeof createSessionChanges>;
  subscriber: Redis;
  /** Session checks that reached PostgreSQL. */
  reads: number;
  sessions: SessionLookup;
}

const processes: ApiProcess[] = [];
const startedAt = new Date();
let userId: string;
let familyId: string;

async function startProcess(): Promise<ApiProcess> {
  const subscriber = new Redis(redisUrl, { lazyConnect: true });
  const self = { reads: 0 } as ApiProcess;
  const sessions = createSessionLookup(pool);
  self.sessions = sessions;
  self.subscriber = subscriber;
  self.callers = createSessionCallers({
    sessions: {
      findLiveSessionCaller: (user, family) => {
        self.reads += 1;
        return sessions.findLiveSessionCaller(user, family);
      },
    },
    ttlMs: 60_000,
    maxEntries: 100,
  });
  self.changes = createSessionChanges({
    callers: self.callers,
    subscriber,
    publisher: redis,
    keyPrefix,
    databaseUrl: database!.url,
    log,
  });
  await self.changes.start();
  processes.push(self);
  return self;
}

/** Checks the session `times` times in `process`; answers the reads that reached PostgreSQL. */
async function check(process: ApiProcess, times = 3) {
  const before = process.reads;
  const callers = [];
  for (let i = 0; i < times; i++) callers.push(await process.callers.find(userId, familyId));
  return { callers, reads: process.reads - before };
}

let first: ApiProcess;
let second: ApiProcess;

beforeAll(async () => {
  database = await createTestDatabase('pagewright_unit');
  ({ prisma: db, pool } = createDatabase(database.url, { poolSize: 4 }));
  const user = await db.user.create({
    data: {
      email: `session-cache-${randomUUID()}@example.com`,
      firstName: 'Cache',
      lastName: 'Test',
      passwordHash: 'not-a-hash',
      passwordChangedAt: new Date(),
    },
  });
  userId = user.id;
  first = await startProcess();
  second = await startProcess();
  expect(first.callers.isTrusted() && second.callers.isTrusted()).toBe(true);
});

beforeEach(async () => {
  const family = await db.refreshTokenFamily.create({
    data: { userId, expiresAt: new Date(Date.now() + 60 * 60_000) },
  });
  familyId = family.id;
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.changes.stop()));
  redis.disconnect();
  await db?.$disconnect();
  await pool?.end();
  if (database) await dropTestDatabase(database.name);
});

describe('session checks remembered per API process', () => {
  it('reads PostgreSQL once per session, then answers from memory', async () => {
    const { callers, reads } = await check(first);
    expect(reads).toBe(1);
    expect(callers.every((c) => c?.id === userId)).toBe(true);
  });

  it('a session ended through one process is refused by both at once', async () => {
    await check(first);
    await check(second);
    expect((await check(second)).reads).toBe(0);
    // What a logout through the first process does: end the family, then announce it.
    await db.refreshTokenFamily.update({
      where: { id: familyId },
      data: { revokedAt: new Date(), revokeReason: 'logout' },
    });
    await first.changes.announce(userId);
    expect((await check(first, 1)).callers).toEqual([null]);
    expect((await check(second, 1)).callers).toEqual([null]);
  });

  it("a change the database announces (an operator's SQL) is forgotten by both", async () => {
    await check(first);
    await check(second);
    await pool.query(`SELECT pg_notify('pagewright_session_changed', $1)`, [userId]);
    await expect.poll(() => first.callers.size() + second.callers.size()).toBe(0);
    expect((await check(first)).reads).toBe(1);
    expect((await check(second)).reads).toBe(1);
  });

  it('trusts nothing while its Redis subscription is down, and again once it is back', async () => {
    await check(second);
    second.subscriber.disconnect();
    await expect.poll(() => second.callers.isTrusted()).toBe(false);
    // It cannot hear changes now: every check reads PostgreSQL.
    expect((await check(second)).reads).toBe(3);
    await second.subscriber.connect();
    await expect.poll(() => second.callers.isTrusted()).toBe(true);
    expect((await check(second)).reads).toBe(1);
  });

  it('trusts nothing while its PostgreSQL LISTEN is down, and again once it is back', async () => {
    await check(first);
    // The listeners this file started (an API on this database listens too; it is left alone).
    const { rows } = await pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE query = 'LISTEN pagewright_session_changed' AND datname = current_database()
         AND backend_start >= $1`,
      [startedAt],
    );
    const pids = rows.map((r) => r.pid);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    await pool.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
    await expect.poll(() => first.callers.isTrusted()).toBe(false);
    await expect.poll(() => first.callers.isTrusted(), { timeout: 15_000 }).toBe(true);
    expect((await check(first)).reads).toBe(1);
  });

  it('does not remember a check that a change overtook', async () => {
    let hasRead = () => undefined as void;
    const read = new Promise<void>((resolve) => (hasRead = resolve));
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const callers = createSessionCallers({
      sessions: {
        findLiveSessionCaller: async (user, family) => {
          const caller = await first.sessions.findLiveSessionCaller(user, family);
          hasRead();
          await released;
          return caller;
        },
      },
      ttlMs: 60_000,
      maxEntries: 100,
    });
    callers.setTrusted(true);
    const reading = callers.find(userId, familyId);
    // The read has its answer; the session changes before the answer returns.
    await read;
    callers.forgetUser(userId);
    release();
    expect((await reading)?.id).toBe(userId);
    expect(callers.size()).toBe(0);
  });

  it('keeps at most maxEntries sessions, dropping the oldest users first', async () => {
    const callers = createSessionCallers({ sessions: first.sessions, ttlMs: 60_000, maxEntries: 1 });
    callers.setTrusted(true);
    const other = await db.refreshTokenFamily.create({
      data: { userId, expiresAt: new Date(Date.now() + 60 * 60_000) },
    });
    await callers.find(userId, familyId);
    await callers.find(userId, other.id);
    expect(callers.size()).toBe(1);
  });
});
