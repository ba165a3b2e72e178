import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import {
  HEALTH_REASONS,
  MAINTENANCE_JOBS,
  QUEUES,
  formatMessage,
  queuePrefix,
  type FireSchedulerPayload,
  type HealthResponse,
  type SchedulerDto,
  type SchedulerFiringDto,
} from '@pagewright/shared';
import { jobSchedulerId } from '@pagewright/shared/schedule-timetable';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { freePort, waitFor } from '../support/ports.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Issue 24: schedules survive a Redis that lost its data, and one account's schedules are capped.
 * A stack of its own on a Redis of its own (no persistence), so FLUSHALL touches nothing else: the
 * shared Redis (6379) and the suite's stack are never touched.
 */

/** The stack's caps, low enough for a test to reach. */
const MAX_SCHEDULERS = 3;
const MAX_FIRINGS_PER_HOUR = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

let redisServer: ChildProcess | undefined;
let redis: Redis;
let stack: TestStack | undefined;
let db: ReturnType<typeof createPrismaClient>;
let schedules: Queue<FireSchedulerPayload>;
let maintenance: Queue;

const api = () => request(stack!.apiUrl);
const bearer = (user: SignedInUser) => ({ Authorization: `Bearer ${user.token}` });
const signUp = (label: string) => createSignedInUser(db, stack!.apiUrl, stack!.mailUrl, label);

async function health(): Promise<HealthResponse> {
  return (await api().get('/api/health').expect(200)).body as HealthResponse;
}

let extractorCount = 0;
async function insertExtractor(user: SignedInUser): Promise<string> {
  extractorCount += 1;
  const name = `Scheduled ${extractorCount}`;
  const extractor = await db.extractor.create({
    data: { userId: user.id, name, description: name, extractorType: 'EXTRACTOR' },
  });
  return extractor.id;
}

let schedulerCount = 0;
/** A scheduler firing every `minutes` minutes (1440: each day at 00:00 UTC). */
function everyMinutes(extractorIds: string[], minutes: number, id?: string) {
  schedulerCount += 1;
  return {
    ...(id ? { id } : {}),
    name: `Recovery ${schedulerCount}`,
    description: 'Runs on its own',
    extractorIds,
    scheduleType: 'MINUTE_INTERVAL',
    minuteInterval: minutes,
  };
}

async function save(user: SignedInUser, body: Record<string, unknown>): Promise<SchedulerDto> {
  const answer = await api().put('/api/extractor/scheduler/').set(bearer(user)).send(body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as SchedulerDto;
}

async function firings(user: SignedInUser, schedulerId: string): Promise<SchedulerFiringDto[]> {
  return (await api().get(`/api/extractor/scheduler/${schedulerId}/firings`).set(bearer(user)).expect(200))
    .body as SchedulerFiringDto[];
}

let redisPort: number;
/** A redis-server of this file's own, keeping nothing on disk: a restart starts it empty. */
async function startRedis(): Promise<void> {
  redisServer = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await waitFor(async () => {
    const probe = new Redis(redisPort, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return await probe.ping();
    } finally {
      probe.disconnect();
    }
  }, 'the private redis-server');
}

beforeAll(async () => {
  redisPort = await freePort();
  await startRedis();
  redis = new Redis(redisPort, '127.0.0.1', { maxRetriesPerRequest: null });
  // While the test restarts its Redis, this client reconnects like the product's.
  redis.on('error', () => undefined);
  stack = await startStack({
    useBuild: process.env.PW_TEST_USE_BUILD === '1',
    env: {
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      JOB_SCHEDULER_RECONCILE_SECONDS: '2',
      SCHEDULERS_MAX_PER_USER: String(MAX_SCHEDULERS),
      SCHEDULER_FIRINGS_MAX_PER_HOUR: String(MAX_FIRINGS_PER_HOUR),
    },
    replaceKilledWorker: false,
  });
  db = createPrismaClient(stack.databaseUrl);
  const prefix = queuePrefix(stack.redisKeyPrefix);
  schedules = new Queue<FireSchedulerPayload>(QUEUES.schedules, { connection: redis, prefix });
  maintenance = new Queue(QUEUES.maintenance, { connection: redis, prefix });
}, 180_000);

afterAll(async () => {
  await schedules?.close();
  await maintenance?.close();
  await stack?.stop();
  redis?.disconnect();
  redisServer?.kill('SIGKILL');
  await db?.$disconnect();
});

describe('a Redis that lost its data (issue 24, item 3)', () => {
  it('gets its job schedulers back from the running worker, scheduler and maintenance alike; health is degraded until then', async () => {
    const user = await signUp('recovery');
    const scheduler = await save(user, everyMinutes([await insertExtractor(user)], 1440));
    await expect.poll(async () => (await health()).status, { timeout: 30_000 }).toBe('ok');
    const workerPid = stack!.worker.child.pid;

    // The worker is paused so that health is read before anything can put the schedules back.
    stack!.worker.child.kill('SIGSTOP');
    try {
      await redis.flushall();
      expect(await schedules.getJobScheduler(jobSchedulerId(scheduler.id))).toBeUndefined();
      expect(await health()).toMatchObject({
        status: 'degraded',
        checks: { database: 'ok', redis: 'ok', workers: 'ok', jobSchedulers: 'down' },
        reasons: [HEALTH_REASONS.jobSchedulers],
      });
    } finally {
      stack!.worker.child.kill('SIGCONT');
    }

    await expect
      .poll(async () => Boolean(await schedules.getJobScheduler(jobSchedulerId(scheduler.id))), {
        timeout: 30_000,
      })
      .toBe(true);
    await expect
      .poll(
        async () => Boolean(await maintenance.getJobScheduler(MAINTENANCE_JOBS.purgeExpiredSessions.name)),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    const restored = await schedules.getJobScheduler(jobSchedulerId(scheduler.id));
    expect(restored).toMatchObject({ every: 1440 * 60_000, next: Date.parse(scheduler.nextRunAt ?? '') });
    await expect
      .poll(async () => health(), { timeout: 30_000 })
      .toMatchObject({
        status: 'ok',
        checks: { jobSchedulers: 'ok' },
        reasons: [],
      });
    // The same worker did it, without a restart.
    expect(stack!.worker.child.pid).toBe(workerPid);
    expect(stack!.worker.child.exitCode).toBeNull();
    // Nothing was due meanwhile: nothing is recorded as missed.
    expect(await firings(user, scheduler.id)).toEqual([]);
  });

  it('records the firings that did not happen as MISSED, with the reason, in the firings the dashboard shows', async () => {
    const user = await signUp('missed');
    const extractorId = await insertExtractor(user);
    const scheduler = await save(user, everyMinutes([extractorId], 1440));
    // Saved three days ago (just after midnight UTC): the last three midnights were due since.
    const midnight = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const savedAt = new Date(midnight - 3 * DAY_MS + 60 * 60_000);
    await db.$executeRaw`UPDATE "Scheduler" SET "updatedAt" = ${savedAt} WHERE id = ${scheduler.id}::uuid`;

    await redis.flushall();

    const missed = await waitFor(
      async () => (await firings(user, scheduler.id)).find((firing) => firing.outcome === 'MISSED'),
      'the missed firing',
      30_000,
    );
    const first = new Date(midnight - 2 * DAY_MS).toISOString();
    const last = new Date(midnight).toISOString();
    expect(missed).toMatchObject({
      scheduledFor: last,
      extractorId,
      outcome: 'MISSED',
      runId: null,
      runStatus: null,
    });
    const restoredAt = /Restored at (\S+)\.$/u.exec(missed.skipReason ?? '')?.[1] ?? '';
    expect(Date.parse(restoredAt)).toBeGreaterThan(savedAt.getTime());
    expect(missed.skipReason).toBe(formatMessage('scheduler.missed', { count: 3, first, last, restoredAt }));
    // One record, not one per pass of the worker, and the schedule fires again.
    expect((await firings(user, scheduler.id)).filter((firing) => firing.outcome === 'MISSED')).toHaveLength(
      1,
    );
    expect(await schedules.getJobScheduler(jobSchedulerId(scheduler.id))).toMatchObject({
      every: 1440 * 60_000,
    });
  });
});

describe('a Redis restarted without persistence (issue 24, item 3)', () => {
  it('gets every job scheduler back from the running worker once it reconnects; health is ok again', async () => {
    const user = await signUp('restart');
    const scheduler = await save(user, everyMinutes([await insertExtractor(user)], 1440));
    await expect.poll(async () => (await health()).status, { timeout: 30_000 }).toBe('ok');
    const workerPid = stack!.worker.child.pid;

    const stopped = new Promise((resolve) => redisServer!.once('exit', resolve));
    redisServer!.kill('SIGKILL');
    await stopped;
    await startRedis();

    await expect
      .poll(async () => Boolean(await schedules.getJobScheduler(jobSchedulerId(scheduler.id))), {
        timeout: 30_000,
      })
      .toBe(true);
    await expect
      .poll(
        async () => Boolean(await maintenance.getJobScheduler(MAINTENANCE_JOBS.purgeExpiredSessions.name)),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    await expect
      .poll(async () => (await api().get('/api/health')).body as HealthResponse, { timeout: 30_000 })
      .toMatchObject({ status: 'ok', checks: { redis: 'ok', jobSchedulers: 'ok' }, reasons: [] });
    expect(stack!.worker.child.pid).toBe(workerPid);
    expect(stack!.worker.child.exitCode).toBeNull();
  });
});

describe('per-account caps on schedules (issue 24, item 5)', () => {
  it('refuses a scheduler past the count cap with its own text, and saves nothing', async () => {
    const user = await signUp('cap-count');
    const extractorId = await insertExtractor(user);
    for (let i = 0; i < MAX_SCHEDULERS; i++) await save(user, everyMinutes([extractorId], 1440));

    const refused = await api()
      .put('/api/extractor/scheduler/')
      .set(bearer(user))
      .send(everyMinutes([extractorId], 1440));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      message: formatMessage('scheduler.limit.count', { max: MAX_SCHEDULERS }),
      code: 'CONFLICT',
    });
    expect(await db.scheduler.count({ where: { userId: user.id } })).toBe(MAX_SCHEDULERS);
    const ids = (await db.scheduler.findMany({ where: { userId: user.id }, select: { id: true } })).map(
      (row) => jobSchedulerId(row.id),
    );
    const keys = (await schedules.getJobSchedulers(0, -1)).map((jobScheduler) => jobScheduler.key);
    expect(keys.filter((key) => ids.includes(key))).toHaveLength(MAX_SCHEDULERS);
    expect(keys.length).toBe(await db.scheduler.count());
  });

  it('refuses a scheduler, or an edit, past the firings-an-hour cap with its own text, and saves nothing', async () => {
    const user = await signUp('cap-firings');
    const extractorId = await insertExtractor(user);
    await save(user, everyMinutes([extractorId], 1)); // 60 an hour
    const everyTwo = await save(user, everyMinutes([extractorId], 2)); // 30 more: at the cap

    const refusedNew = await api()
      .put('/api/extractor/scheduler/')
      .set(bearer(user))
      .send(everyMinutes([extractorId], 60));
    expect(refusedNew.status).toBe(409);
    expect(refusedNew.body).toEqual({
      message: formatMessage('scheduler.limit.firings', { total: 91, max: MAX_FIRINGS_PER_HOUR }),
      code: 'CONFLICT',
      field: 'minuteInterval',
    });
    expect(await db.scheduler.count({ where: { userId: user.id } })).toBe(2);

    const refusedEdit = await api()
      .put('/api/extractor/scheduler/')
      .set(bearer(user))
      .send({ ...everyMinutes([extractorId], 1, everyTwo.id), name: everyTwo.name });
    expect(refusedEdit.status).toBe(409);
    expect(refusedEdit.body).toMatchObject({
      message: formatMessage('scheduler.limit.firings', { total: 120, max: MAX_FIRINGS_PER_HOUR }),
    });
    const kept = await db.scheduler.findUniqueOrThrow({ where: { id: everyTwo.id } });
    expect(kept.minuteInterval).toBe(2);
    expect(await schedules.getJobScheduler(jobSchedulerId(everyTwo.id))).toMatchObject({ every: 2 * 60_000 });
  });
});
