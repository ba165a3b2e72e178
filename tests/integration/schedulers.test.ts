import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient, type Prisma } from '@pagewright/db';
import {
  MESSAGES,
  QUEUES,
  SCHEDULE_JOBS,
  jobOf,
  queuePrefix,
  type FireSchedulerPayload,
  type RunDetail,
  type SchedulerDto,
  type SchedulerFiringDto,
} from '@pagewright/shared';
import { jobSchedulerId, nextFireTimes } from '@pagewright/shared/schedule-timetable';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { createInbox } from '../support/inbox.js';
import { waitFor } from '../support/ports.js';
import { keysWithoutExpiry } from '../support/redis-keys.js';
import { waitForRun } from '../support/runs-api.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Schedulers (issue 13) on a stack of their own with two workers on one Redis and one Postgres:
 * the calls and their rules, the job schedulers BullMQ keeps for them (pattern, zone, next time),
 * firings through the real worker (driven with a short `every` where a test cannot wait for a
 * minute), skips, duplicates, reconciliation at a worker's start, and the owner e-mailed when a
 * scheduled run asks.
 */

type Account = SignedInUser;

let stack: TestStack;
let site: FixtureSite;
let db: ReturnType<typeof createPrismaClient>;
let connection: Redis;
let schedules: Queue<FireSchedulerPayload>;
let owner: Account;
let stranger: Account;

const api = () => request(stack.apiUrl);
const bearer = (account: Account) => ({ Authorization: `Bearer ${account.token}` });

const signUp = (label: string): Promise<Account> =>
  createSignedInUser(db, stack.apiUrl, stack.mailUrl, label);

type ActionRow = Omit<Prisma.ExtractorActionCreateManyInput, 'extractorId'>;

async function insertExtractor(
  account: Account,
  name: string,
  actions: ActionRow[],
  extractorType: 'EXTRACTOR' | 'INSERTOR' | 'NAVIGATOR' = 'EXTRACTOR',
): Promise<string> {
  const extractor = await db.extractor.create({
    data: { userId: account.id, name, description: name, extractorType },
  });
  if (actions.length > 0)
    await db.extractorAction.createMany({
      data: actions.map((action) => ({ ...action, extractorId: extractor.id })),
    });
  return extractor.id;
}

const titleActions = (waitSeconds = 0): ActionRow[] => [
  { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
  ...(waitSeconds > 0 ? [{ sequence: 20, type: 'WAIT' as const, options: { number: waitSeconds } }] : []),
  { sequence: 30, type: 'GET_TEXT', label: 'Title', selectorValue: '#login-title' },
];

let schedulerCount = 0;
function daily(extractorIds: string[], overrides: Record<string, unknown> = {}) {
  schedulerCount += 1;
  return {
    name: `Scheduler ${schedulerCount}`,
    description: 'Runs on its own',
    extractorIds,
    scheduleType: 'DAILY',
    time: '09:30:00',
    timeZone: 'Europe/Berlin',
    ...overrides,
  };
}

async function save(account: Account, body: Record<string, unknown>): Promise<SchedulerDto> {
  const answer = await api().put('/api/extractor/scheduler/').set(bearer(account)).send(body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body).toMatchObject({ message: MESSAGES['scheduler.saved'] });
  return answer.body as SchedulerDto;
}

async function firings(account: Account, schedulerId: string): Promise<SchedulerFiringDto[]> {
  const answer = await api()
    .get(`/api/extractor/scheduler/${schedulerId}/firings`)
    .set(bearer(account))
    .expect(200);
  return answer.body as SchedulerFiringDto[];
}

/** Makes the scheduler's job scheduler fire every `everyMs` (the production processor handles it). */
async function fireEvery(schedulerId: string, everyMs: number): Promise<void> {
  await schedules.upsertJobScheduler(
    jobSchedulerId(schedulerId),
    { every: everyMs },
    jobOf(SCHEDULE_JOBS.fire, { schedulerId }),
  );
}

beforeAll(async () => {
  site = await startFixtureSite();
  stack = await startStack({ useBuild: process.env.PW_TEST_USE_BUILD === '1', replaceKilledWorker: false });
  await stack.startWorker();
  db = createPrismaClient(stack.databaseUrl);
  connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  schedules = new Queue<FireSchedulerPayload>(QUEUES.schedules, {
    connection,
    prefix: queuePrefix(stack.redisKeyPrefix),
  });
  [owner, stranger] = await Promise.all([signUp('scheduler-owner'), signUp('scheduler-stranger')]);
}, 180_000);

afterAll(async () => {
  await schedules?.close();
  connection?.disconnect();
  await stack?.stop();
  await site?.close();
  await db?.$disconnect();
});

describe('saving schedulers', () => {
  it('keeps one job scheduler per scheduler, with the pattern and zone BullMQ fires by, and shows its next time', async () => {
    const extractorId = await insertExtractor(owner, 'Timetables', titleActions());
    const cases = [
      // An interval's first firing is its next multiple, not the moment of saving.
      { body: { scheduleType: 'MINUTE_INTERVAL', minuteInterval: 15 }, repeat: { every: 900_000 } },
      {
        body: { scheduleType: 'DAILY', time: '09:30:00' },
        repeat: { pattern: '30 9 * * *', tz: 'Europe/Berlin' },
      },
      {
        body: { scheduleType: 'WEEKLY', time: '08:05:00', daysOfWeek: ['FRIDAY', 'MONDAY'] },
        repeat: { pattern: '5 8 * * 1,5', tz: 'Europe/Berlin' },
      },
      {
        body: { scheduleType: 'MONTHLY', time: '07:00:00', dayOfMonth: 31 },
        repeat: { pattern: '0 7 L * *', tz: 'Europe/Berlin' },
      },
    ];
    for (const { body, repeat } of cases) {
      const saved = await save(owner, daily([extractorId], { ...body, time: undefined, ...body }));
      const jobScheduler = await schedules.getJobScheduler(jobSchedulerId(saved.id));
      expect(jobScheduler, body.scheduleType).toMatchObject(repeat);
      // The dashboard's next run is the time BullMQ's next job is due.
      expect(Date.parse(saved.nextRunAt ?? ''), body.scheduleType).toBe(Number(jobScheduler?.next));
      const timetable = {
        scheduleType: saved.scheduleType,
        minuteInterval: saved.minuteInterval,
        time: saved.time,
        daysOfWeek: saved.daysOfWeek,
        dayOfMonth: saved.dayOfMonth,
        timeZone: saved.timeZone,
      };
      expect(saved.nextRunAt).toBe(
        nextFireTimes(timetable, new Date(Date.parse(saved.nextRunAt ?? '') - 60_000))[0]?.toISOString(),
      );
    }
    const listed = (await api().get('/api/extractor/scheduler/').set(bearer(owner)).expect(200))
      .body as SchedulerDto[];
    expect(listed.length).toBeGreaterThanOrEqual(4);
    expect(listed[0]).toMatchObject({
      extractors: [{ id: extractorId, name: 'Timetables', extractorType: 'EXTRACTOR' }],
    });
  });

  it('keeps only the fields of the chosen type, and an edit replaces the job scheduler', async () => {
    const extractorId = await insertExtractor(owner, 'Edited timetable', titleActions());
    const saved = await save(
      owner,
      daily([extractorId], { minuteInterval: 30, daysOfWeek: ['MONDAY'], dayOfMonth: 4 }),
    );
    expect(saved).toMatchObject({
      scheduleType: 'DAILY',
      minuteInterval: null,
      daysOfWeek: [],
      dayOfMonth: null,
    });
    const edited = await save(owner, {
      ...daily([extractorId]),
      id: saved.id,
      name: saved.name,
      scheduleType: 'MINUTE_INTERVAL',
      minuteInterval: 5,
      timeZone: 'UTC',
    });
    expect(edited).toMatchObject({
      id: saved.id,
      scheduleType: 'MINUTE_INTERVAL',
      minuteInterval: 5,
      time: null,
    });
    expect(await schedules.getJobScheduler(jobSchedulerId(saved.id))).toMatchObject({ every: 300_000 });
    expect(
      (await api().get(`/api/extractor/scheduler/${saved.id}`).set(bearer(owner)).expect(200)).body,
    ).toMatchObject({
      id: saved.id,
      minuteInterval: 5,
    });
  });

  it('refuses a missing or wrong part of the timetable with the spec’s texts, naming the field', async () => {
    const extractorId = await insertExtractor(owner, 'Rules', titleActions());
    const navigatorId = await insertExtractor(owner, 'A navigator', titleActions(), 'NAVIGATOR');
    const refused = async (body: Record<string, unknown>, message: string, field: string) => {
      const answer = await api().put('/api/extractor/scheduler/').set(bearer(owner)).send(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ message, field });
    };
    const base = daily([extractorId]);
    await refused({ ...base, scheduleType: undefined }, 'Please select the frequency', 'scheduleType');
    await refused(
      { ...base, scheduleType: 'MINUTE_INTERVAL' },
      'Please select an interval',
      'minuteInterval',
    );
    // "0" is no interval: refused, never saved as every minute.
    await refused(
      { ...base, scheduleType: 'MINUTE_INTERVAL', minuteInterval: 0 },
      'Please select an interval',
      'minuteInterval',
    );
    await refused(
      { ...base, scheduleType: 'MINUTE_INTERVAL', minuteInterval: '0' },
      'Please select an interval',
      'minuteInterval',
    );
    await refused(
      { ...base, scheduleType: 'MINUTE_INTERVAL', minuteInterval: 1441 },
      'Please select an interval',
      'minuteInterval',
    );
    await refused({ ...base, time: '24:00:00' }, 'Please type the hour', 'time');
    await refused({ ...base, time: undefined }, 'Please type the hour', 'time');
    await refused({ ...base, time: '09:60:00' }, 'Please type the minute', 'time');
    await refused(
      { ...base, scheduleType: 'WEEKLY', daysOfWeek: [] },
      'Please type the day of the week',
      'daysOfWeek',
    );
    await refused({ ...base, scheduleType: 'MONTHLY' }, 'Please type the day of the month', 'dayOfMonth');
    await refused(
      { ...base, scheduleType: 'MONTHLY', dayOfMonth: 32 },
      'Please type the day of the month',
      'dayOfMonth',
    );
    await refused({ ...base, extractorIds: [] }, MESSAGES['scheduler.extractors.required'], 'extractorIds');
    await refused(
      { ...base, extractorIds: [navigatorId] },
      MESSAGES['scheduler.extractor.navigator'],
      'extractorIds',
    );
    await refused({ ...base, timeZone: 'Mars/Olympus' }, MESSAGES['scheduler.time.zone.unknown'], 'timeZone');
    await refused({ ...base, name: '   ' }, MESSAGES['scheduler.list.error.name'], 'name');
  });

  it('answers 409 "Scheduler already exists" for a used name; rename has the unique-name text', async () => {
    const extractorId = await insertExtractor(owner, 'Names', titleActions());
    const first = await save(owner, daily([extractorId], { name: 'Nightly' }));
    const second = await save(owner, daily([extractorId], { name: 'Weekly report' }));
    const conflict = await api()
      .put('/api/extractor/scheduler/')
      .set(bearer(owner))
      .send(daily([extractorId], { name: 'Nightly' }));
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ message: 'Scheduler already exists', field: 'name' });
    const renameTaken = await api()
      .post('/api/extractor/scheduler/rename')
      .set(bearer(owner))
      .send({ id: second.id, name: 'Nightly', description: 'x' });
    expect(renameTaken.status).toBe(409);
    expect(renameTaken.body).toMatchObject({
      message: MESSAGES['scheduler.list.error.unique'],
      field: 'name',
    });
    const renamed = await api()
      .post('/api/extractor/scheduler/rename')
      .set(bearer(owner))
      .send({ id: first.id, name: 'Nightly run', description: 'Every night' })
      .expect(200);
    expect(renamed.body).toMatchObject({ message: 'Scheduler renamed successfully.', name: 'Nightly run' });
    // A user's names are their own: the stranger may use the same one.
    const strangerExtractor = await insertExtractor(stranger, 'Theirs', titleActions());
    await save(stranger, daily([strangerExtractor], { name: 'Nightly run' }));
  });

  it('lists the IANA time zones and the server’s', async () => {
    const answer = await api().get('/api/extractor/scheduler/timezone').set(bearer(owner)).expect(200);
    expect(answer.body.timeZones).toEqual(
      expect.arrayContaining(['UTC', 'Europe/Berlin', 'America/New_York']),
    );
    expect(typeof answer.body.serverTimeZone).toBe('string');
  });

  it('gives user B nothing of user A’s schedulers', async () => {
    const extractorId = await insertExtractor(owner, 'Private', titleActions());
    const mine = await save(owner, daily([extractorId], { name: 'Private scheduler' }));
    const theirs = (await api().get('/api/extractor/scheduler/').set(bearer(stranger)).expect(200))
      .body as SchedulerDto[];
    expect(theirs.map((scheduler) => scheduler.id)).not.toContain(mine.id);
    await api().get(`/api/extractor/scheduler/${mine.id}`).set(bearer(stranger)).expect(404);
    await api().get(`/api/extractor/scheduler/${mine.id}/firings`).set(bearer(stranger)).expect(404);
    await api()
      .put('/api/extractor/scheduler/')
      .set(bearer(stranger))
      .send({ ...daily([extractorId]), id: mine.id })
      .expect(404);
    await api()
      .post('/api/extractor/scheduler/rename')
      .set(bearer(stranger))
      .send({ id: mine.id, name: 'Taken over', description: 'x' })
      .expect(404);
    await api().delete(`/api/extractor/scheduler/${mine.id}`).set(bearer(stranger)).expect(404);
    // Nor can B schedule A's extractor.
    const borrowed = await api()
      .put('/api/extractor/scheduler/')
      .set(bearer(stranger))
      .send(daily([extractorId]));
    expect(borrowed.status).toBe(400);
    expect(borrowed.body).toMatchObject({ message: MESSAGES['scheduler.extractor.unknown'] });
    const after = (await api().get(`/api/extractor/scheduler/${mine.id}`).set(bearer(owner)).expect(200))
      .body as SchedulerDto;
    expect(after).toMatchObject({ name: 'Private scheduler', scheduleType: 'DAILY' });
    expect(await schedules.getJobScheduler(jobSchedulerId(mine.id))).toBeDefined();
  });

  it('refuses to delete an extractor a scheduler runs', async () => {
    const extractorId = await insertExtractor(owner, 'Scheduled one', titleActions());
    await save(owner, daily([extractorId]));
    const refused = await api().delete(`/api/extractor/${extractorId}`).set(bearer(owner));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: MESSAGES['extractor.delete.scheduler'] });
    expect(await db.extractor.count({ where: { id: extractorId } })).toBe(1);
  });
});

describe('firing', () => {
  it('starts SCHEDULED runs through the worker, and records a skip while the extractor still executes', async () => {
    const extractorId = await insertExtractor(owner, 'Slow report', titleActions(4));
    const scheduler = await save(owner, daily([extractorId], { name: 'Every second' }));
    await fireEvery(scheduler.id, 1000);
    const history = await waitFor(
      async () => {
        const seen = await firings(owner, scheduler.id);
        return seen.some((f) => f.outcome === 'STARTED') && seen.some((f) => f.outcome === 'SKIPPED')
          ? seen
          : undefined;
      },
      'a started and a skipped firing',
      30_000,
    );
    const started = history.find((f) => f.outcome === 'STARTED');
    const skipped = history.find((f) => f.outcome === 'SKIPPED');
    expect(skipped).toMatchObject({
      extractorId,
      skipReason: MESSAGES['scheduler.skip.executing'],
      runId: null,
    });
    expect(history.every((f) => f.extractorName === 'Slow report')).toBe(true);
    const run = await waitForRun(stack.apiUrl, owner.token, started?.runId ?? '');
    expect(run).toMatchObject({ status: 'SUCCESS', trigger: 'SCHEDULED' } satisfies Partial<RunDetail>);
    // The dashboard panel shows the scheduler's last run and its state.
    const listed = (
      await api().get(`/api/extractor/scheduler/${scheduler.id}`).set(bearer(owner)).expect(200)
    ).body as SchedulerDto;
    expect(listed.lastRun).toMatchObject({ extractorName: 'Slow report' });
    await api().delete(`/api/extractor/scheduler/${scheduler.id}`).set(bearer(owner)).expect(200);
    // The runs stay, no longer linked to the deleted scheduler.
    expect(await db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      trigger: 'SCHEDULED',
      schedulerId: null,
    });
  });

  it('starts one run per extractor and scheduled time, however many times two workers handle the firing', async () => {
    const extractorIds = await Promise.all(
      ['First', 'Second', 'Third'].map((name) => insertExtractor(owner, `Once ${name}`, titleActions())),
    );
    const scheduler = await save(owner, daily(extractorIds, { name: 'Exactly once' }));
    const scheduledFor = Date.UTC(2030, 0, 1, 8, 30);
    // Twelve jobs for one firing at once: both workers take some (eight at a time each).
    await schedules.addBulk(
      Array.from({ length: 12 }, (_, index) => ({
        name: SCHEDULE_JOBS.fire.name,
        data: { schedulerId: scheduler.id },
        opts: { jobId: `duplicate-${scheduler.id}-${index}`, prevMillis: scheduledFor },
      })),
    );
    await waitFor(
      async () =>
        (await schedules.getJobCounts('waiting', 'active', 'delayed')).waiting === 0 ? true : undefined,
      'the duplicate firings handled',
      30_000,
    );
    await waitFor(
      async () =>
        (await db.schedulerFiring.count({ where: { schedulerId: scheduler.id } })) >= 3 &&
        (await schedules.getJobCounts('active')).active === 0
          ? true
          : undefined,
      'every firing job done',
      30_000,
    );
    const recorded = await db.schedulerFiring.findMany({
      where: { schedulerId: scheduler.id },
      select: { extractorId: true, outcome: true, scheduledFor: true, runId: true },
    });
    expect(recorded).toHaveLength(3);
    expect(new Set(recorded.map((f) => f.extractorId))).toEqual(new Set(extractorIds));
    expect(recorded.every((f) => f.outcome === 'STARTED' && f.scheduledFor.getTime() === scheduledFor)).toBe(
      true,
    );
    const runs = await db.run.findMany({ where: { schedulerId: scheduler.id } });
    expect(runs).toHaveLength(3);
    for (const run of runs) await waitForRun(stack.apiUrl, owner.token, run.id);
  });

  it('e-mails the owner when a scheduled run reaches an ask without a saved answer', async () => {
    const extractorId = await insertExtractor(owner, 'Needs a code', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      { sequence: 20, type: 'ASK_ID', label: 'User id', selectorValue: '#username', textValue: 'Your id?' },
    ]);
    const scheduler = await save(owner, daily([extractorId], { name: 'Unattended' }));
    await fireEvery(scheduler.id, 60_000);
    await schedules.add(SCHEDULE_JOBS.fire.name, { schedulerId: scheduler.id }, {
      jobId: `ask-${scheduler.id}`,
      prevMillis: Date.now(),
    } as never);
    const mail = await createInbox(stack.mailUrl).latest(owner.email, 'is waiting for your answer', 30_000);
    expect(mail.subject).toContain('"Needs a code"');
    expect(mail.text).toContain('Your id?');
    expect(mail.text).toMatch(/https?:\/\/\S+\/dashboard/u);
    await api().delete(`/api/extractor/scheduler/${scheduler.id}`).set(bearer(owner)).expect(200);
  });
});

describe('job schedulers follow PostgreSQL', () => {
  it('removes the job scheduler on delete; the runs it started stay', async () => {
    const extractorId = await insertExtractor(owner, 'Deleted schedule', titleActions());
    const scheduler = await save(owner, daily([extractorId]));
    expect(await schedules.getJobScheduler(jobSchedulerId(scheduler.id))).toBeDefined();
    await api()
      .delete(`/api/extractor/scheduler/${scheduler.id}`)
      .set(bearer(owner))
      .expect(200, { message: MESSAGES['scheduler.deleted'] });
    expect(await schedules.getJobScheduler(jobSchedulerId(scheduler.id))).toBeUndefined();
    const keys = (await schedules.getJobSchedulers(0, -1)).map((js) => js.key);
    expect(keys).not.toContain(jobSchedulerId(scheduler.id));
    await api().get(`/api/extractor/scheduler/${scheduler.id}`).set(bearer(owner)).expect(404);
  });

  it('a starting worker creates missing and changed job schedulers and removes stale ones', async () => {
    const extractorId = await insertExtractor(owner, 'Reconciled', titleActions());
    const lost = await save(owner, daily([extractorId], { name: 'Lost in Redis' }));
    const changed = await save(owner, daily([extractorId], { name: 'Changed in the database' }));
    const staleKey = jobSchedulerId(randomUUID());
    await schedules.removeJobScheduler(jobSchedulerId(lost.id));
    await db.scheduler.update({
      where: { id: changed.id },
      data: { time: '18:45:00', timezone: 'Asia/Tokyo' },
    });
    await schedules.upsertJobScheduler(
      staleKey,
      { every: 3_600_000 },
      {
        name: SCHEDULE_JOBS.fire.name,
        data: { schedulerId: staleKey.split(':')[1] ?? '' },
      },
    );

    await stack.startWorker();
    await waitFor(
      async () => ((await schedules.getJobScheduler(jobSchedulerId(lost.id))) ? true : undefined),
      'the lost job scheduler back',
      60_000,
    );
    expect(await schedules.getJobScheduler(jobSchedulerId(lost.id))).toMatchObject({
      pattern: '30 9 * * *',
      tz: 'Europe/Berlin',
    });
    expect(await schedules.getJobScheduler(jobSchedulerId(changed.id))).toMatchObject({
      pattern: '45 18 * * *',
      tz: 'Asia/Tokyo',
    });
    expect(await schedules.getJobScheduler(staleKey)).toBeUndefined();
  });

  it('leaves no key without an expiry besides the queues and one job scheduler per scheduler', async () => {
    await expect
      .poll(() => keysWithoutExpiry(connection, stack.redisKeyPrefix), { timeout: 15_000 })
      .toEqual([]);
  });
});
