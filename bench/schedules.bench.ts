/**
 * Schedulers at size (issue 13 acceptance: "1,000 schedulers due in the same minute with two
 * workers: runs created, duplicates (goal 0), firing drift (enqueue time minus scheduled time)
 * p50/p95/max — goal p95 ≤ 2 s — and database queries per firing"), next to a baseline measured in
 * the same run:
 *  1. product: the stack's worker and a second one (BullMQ concurrency 8 each); one user; 1,000
 *     extractors inserted with Prisma (one NAVIGATE each); 1,000 one-extractor schedulers created
 *     through PUT /api/extractor/scheduler/ (4 at a time), all DAILY at one minute in UTC: the next
 *     whole minute that leaves time to create them all, judged from 20 probe schedulers saved and
 *     deleted first. Their job schedulers are the ones the API upserted, untouched. The runs queue
 *     is paused before the minute: every run is created and queued, no browser runs it (this
 *     measures firing, not flows). Figures: runs created, duplicates (runs per scheduler and time
 *     beyond one; firings another worker had already handled), skips and why, drift = the run job's
 *     enqueue time (job.timestamp in the runs queue) minus the scheduled time (the firing's
 *     scheduledFor, BullMQ's prevMillis), the part of it before a worker took the firing job
 *     (processedOn), the time from the minute to the last run queued, and firings per worker (the
 *     workers' "scheduler fired" log lines).
 *  2. baseline, the minute after: 1,000 bare BullMQ job schedulers with the same kind of pattern
 *     (repeatRuleOf a DAILY timetable, tz UTC) on a queue of their own under the same prefix, taken
 *     by two no-op Workers in this process (concurrency 8 each, as the product's two workers);
 *     drift = the time the processor ran minus the job's prevMillis.
 *  3. database queries per firing: createFireSchedulerProcessor run in this process on fake jobs
 *     (data {schedulerId}, opts {prevMillis}) over a Prisma client whose pg pool counts every
 *     statement its connections send (BEGIN and COMMIT included), with the worker's run starter
 *     queueing into the real, paused runs queue: firings of one-extractor and of ten-extractor
 *     schedulers (hence the cost per extractor), and skipped firings (the extractor is EXECUTING:
 *     the schedulers of step 1 fired again a day later).
 * Run: pnpm bench:schedules  (needs PostgreSQL and Redis; starts its own stack and database; uses
 * the build unless BENCH_USE_SOURCE=1). BENCH_SCHEDULERS changes the 1,000, BENCH_QUERY_FIRINGS
 * the 100 firings counted in step 3. Logs go to .pagewright/bench-logs/; the header prints the load
 * average (other work on this 2-core machine shows in the figures).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import {
  QUEUES,
  RUN_JOBS,
  SCHEDULE_JOBS,
  addJob,
  queuePrefix,
  type FireSchedulerPayload,
  type RunFlowPayload,
} from '@pagewright/shared';
import { jobSchedulerId, repeatRuleOf, type Timetable } from '@pagewright/shared/schedule-timetable';
import { createDatabase, createPrismaClient, createRunStarter, pgSql } from '@pagewright/db';
import { createFireSchedulerProcessor } from '@pagewright/worker';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { waitFor } from '../tests/support/ports.js';
import { startStack } from '../tests/support/stack.js';
import { benchNodeArgs } from './support/node-args.js';

const SCHEDULERS = Number(process.env.BENCH_SCHEDULERS ?? 1000);
const QUERY_FIRINGS = Number(process.env.BENCH_QUERY_FIRINGS ?? 100);
const SAVES_AT_ONCE = 4;
const PROBE_SAVES = 20;
/** The product's schedules worker concurrency (apps/worker/src/main.ts). */
const WORKER_CONCURRENCY = 8;
const WIDE_SCHEDULER_EXTRACTORS = 10;
const WIDE_FIRINGS = 10;
const FIRING_TIMEOUT_MS = 3 * 60_000;
const GOAL_DRIFT_P95_MS = 2000;
const DAY_MS = 86_400_000;
const BASELINE_QUEUE = 'bench-baseline-schedules';

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const spread = (values: readonly number[]) =>
  `p50 ${seconds(percentile(values, 50))} / p95 ${seconds(percentile(values, 95))} / max ${seconds(Math.max(...values))}`;
const line = (label: string, text: string) => console.log(`${label.padEnd(60)} ${text}`);
const count = (n: number) => n.toLocaleString('en');

/** The next whole minute at least `leadMs` from now. */
const wholeMinuteAfter = (leadMs: number) => Math.ceil((Date.now() + leadMs) / 60_000) * 60_000;
/** A DAILY timetable in UTC firing at the minute of `millis`. */
const dailyAt = (millis: number): Timetable => ({
  scheduleType: 'DAILY',
  minuteInterval: null,
  time: `${new Date(millis).toISOString().slice(11, 16)}:00`,
  daysOfWeek: [],
  dayOfMonth: null,
  timeZone: 'UTC',
});

/** Runs `work` on every item, `atOnce` at a time; the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

/** Counts the statements a pg pool's connections send, by first word (BEGIN and COMMIT too). */
function countStatements(pool: ReturnType<typeof createDatabase>['pool']) {
  const byKind = new Map<string, number>();
  pool.on('connect', (client) => {
    const send = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const [first] = args;
      const text = typeof first === 'string' ? first : ((first as { text?: string }).text ?? '');
      const kind = /^\s*(\w+)/u.exec(text)?.[1]?.toUpperCase() ?? '?';
      byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
      return send(...args);
    }) as typeof client.query;
  });
  return {
    /** The counts since the last take. */
    take() {
      const counted = new Map(byKind);
      byKind.clear();
      return counted;
    },
  };
}
const total = (counted: Map<string, number>) => [...counted.values()].reduce((a, b) => a + b, 0);
const kinds = (counted: Map<string, number>, per: number) =>
  [...counted]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${kind} ${+(n / per).toFixed(2)}`)
    .join(', ');

/** The "scheduler fired" lines a worker log holds for these schedulers at one time. */
function firingsLogged(logFile: string, schedulerIds: ReadonlySet<string>, scheduledFor: string) {
  let firings = 0;
  let alreadyFired = 0;
  for (const text of readFileSync(logFile, 'utf8').split('\n')) {
    if (!text.includes('"scheduler fired"')) continue;
    const logged = JSON.parse(text) as { schedulerId?: string; scheduledFor?: string; alreadyFired?: number };
    if (!schedulerIds.has(logged.schedulerId ?? '') || logged.scheduledFor !== scheduledFor) continue;
    firings += 1;
    alreadyFired += logged.alreadyFired ?? 0;
  }
  return { firings, alreadyFired };
}

const loadAtStart = os.loadavg()[0]!;
const useBuild = process.env.BENCH_USE_SOURCE !== '1';
const stack = await startStack({
  nodeArgs: benchNodeArgs('schedules'),
  useBuild,
  // Workers log at info whatever this says: their "scheduler fired" lines tell them apart.
  env: { LOG_LEVEL: 'error', ACCESS_TOKEN_TTL_SECONDS: '7200' },
  logDirectory: 'bench-logs',
});
const db = createPrismaClient(stack.databaseUrl);
const counted = createDatabase(stack.databaseUrl);
const statements = countStatements(counted.pool);
const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  maxRetriesPerRequest: null,
});
const prefix = queuePrefix(stack.redisKeyPrefix);
const runsQueue = new Queue<RunFlowPayload>(QUEUES.runs, { connection, prefix });
const schedulesQueue = new Queue<FireSchedulerPayload>(QUEUES.schedules, { connection, prefix });
const baselineQueue = new Queue(BASELINE_QUEUE, { connection, prefix });
try {
  const secondWorker = await stack.startWorker();
  const workers = [stack.worker, secondWorker];
  const account = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench-schedules');
  const { id: userId } = await db.user.findUniqueOrThrow({
    where: { email: account.username.toLowerCase() },
  });

  /** Extractors with one NAVIGATE each (never run: the runs queue is paused). */
  const insertExtractors = async (label: string, howMany: number) => {
    const ids = Array.from({ length: howMany }, () => randomUUID());
    await db.extractor.createMany({
      data: ids.map((id, i) => ({
        id,
        userId,
        name: `${label} ${i + 1}`,
        description: 'schedules benchmark',
        extractorType: 'EXTRACTOR' as const,
      })),
    });
    await db.extractorAction.createMany({
      data: ids.map((extractorId) => ({
        extractorId,
        sequence: 10,
        type: 'NAVIGATE' as const,
        textValue: 'about:blank',
      })),
    });
    return ids;
  };
  const extractorIds = await insertExtractors('Scheduled', SCHEDULERS);

  const authorization = `Bearer ${account.accessToken}`;
  const saveScheduler = async (name: string, extractorId: string, timetable: Timetable) => {
    const response = await fetch(`${stack.apiUrl}/api/extractor/scheduler/`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        description: 'schedules benchmark',
        extractorIds: [extractorId],
        scheduleType: timetable.scheduleType,
        time: timetable.time,
        timeZone: timetable.timeZone,
      }),
    });
    if (!response.ok) throw new Error(`PUT scheduler ${name}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { id: string }).id;
  };

  // How long saving takes here and now, from probe schedulers due half a day away (then deleted).
  const probeStarted = performance.now();
  const probeIds = await inParallel(extractorIds.slice(0, PROBE_SAVES), SAVES_AT_ONCE, (id) =>
    saveScheduler(`Probe ${id}`, id, dailyAt(Date.now() + DAY_MS / 2)),
  );
  const probeMsEach = (performance.now() - probeStarted) / PROBE_SAVES;
  for (const id of probeIds) {
    const deleted = await fetch(`${stack.apiUrl}/api/extractor/scheduler/${id}`, {
      method: 'DELETE',
      headers: { authorization },
    });
    if (!deleted.ok) throw new Error(`DELETE scheduler ${id}: ${deleted.status}`);
  }
  const dueAt = wholeMinuteAfter(2 * SCHEDULERS * probeMsEach + 15_000);
  const due = new Date(dueAt);

  // The minute's runs are created and queued, never run.
  await runsQueue.pause();
  const savingStarted = performance.now();
  const schedulerIds = await inParallel(extractorIds, SAVES_AT_ONCE, (id) =>
    saveScheduler(`Bench ${id}`, id, dailyAt(dueAt)),
  );
  const savingMs = performance.now() - savingStarted;
  if (Date.now() > dueAt - 1000)
    throw new Error(`saving ${SCHEDULERS} schedulers ended after their minute (${due.toISOString()})`);
  const jobSchedulers = await schedulesQueue.getJobSchedulers(0, -1);
  const dueJobSchedulers = jobSchedulers.filter((js) => js.next === dueAt).length;

  // The minute: wait until every scheduler has a firing record (a run or a skip).
  const ourSchedulers = new Set(schedulerIds);
  const isComplete = await waitFor(
    async () =>
      (await db.schedulerFiring.count({ where: { userId, scheduledFor: due } })) >= SCHEDULERS
        ? true
        : undefined,
    'every firing recorded',
    dueAt - Date.now() + FIRING_TIMEOUT_MS,
  ).then(
    () => true,
    () => false,
  );
  const firings = await db.schedulerFiring.findMany({
    where: { userId, scheduledFor: due },
    select: { schedulerId: true, outcome: true, skipReason: true, runId: true },
  });
  const runs = await db.run.findMany({
    where: { userId, trigger: 'SCHEDULED' },
    select: { id: true, schedulerId: true, schedulerFiring: { select: { scheduledFor: true } } },
  });
  const runsPerFiring = new Map<string, number>();
  for (const run of runs) {
    const key = `${run.schedulerId}@${run.schedulerFiring?.scheduledFor.toISOString() ?? 'no firing record'}`;
    runsPerFiring.set(key, (runsPerFiring.get(key) ?? 0) + 1);
  }
  const duplicateRuns = [...runsPerFiring.values()].reduce((sum, n) => sum + n - 1, 0);
  const skipReasons = new Map<string, number>();
  for (const firing of firings.filter((f) => f.outcome === 'SKIPPED'))
    skipReasons.set(firing.skipReason ?? '?', (skipReasons.get(firing.skipReason ?? '?') ?? 0) + 1);
  const runJobs = await Promise.all(runs.map((run) => runsQueue.getJob(run.id)));
  const queuedAt = runJobs.flatMap((job) => (job ? [job.timestamp] : []));
  const drifts = queuedAt.map((timestamp) => timestamp - dueAt);
  const firingJobs = (await schedulesQueue.getJobs(['completed', 'failed'], 0, -1)).filter(
    (job) =>
      job.opts.prevMillis === dueAt && ourSchedulers.has((job.data as FireSchedulerPayload).schedulerId),
  );
  const pickupDrifts = firingJobs.flatMap((job) => (job.processedOn ? [job.processedOn - dueAt] : []));
  const failedFiringJobs = await schedulesQueue.getJobCountByTypes('failed');
  const perWorker = workers.map((worker) => firingsLogged(worker.logFile, ourSchedulers, due.toISOString()));
  const runJobCounts = await runsQueue.getJobCounts();
  const runJobsQueued = Object.values(runJobCounts).reduce((a, b) => a + b, 0);

  // The baseline, the next minute: bare job schedulers of the same kind, no-op workers.
  const baselineDueAt = wholeMinuteAfter(10_000);
  const baselineRule = repeatRuleOf(dailyAt(baselineDueAt));
  for (let i = 0; i < SCHEDULERS; i++)
    await baselineQueue.upsertJobScheduler(`baseline:${i}`, baselineRule, {
      name: SCHEDULE_JOBS.fire.name,
      data: { i },
      opts: SCHEDULE_JOBS.fire.options,
    });
  const baselineDrifts: number[] = [];
  const baselineWorkers = workers.map(
    () =>
      new Worker(
        BASELINE_QUEUE,
        async (job: Job) => {
          baselineDrifts.push(Date.now() - Number((job.opts as { prevMillis?: number }).prevMillis));
        },
        { connection, prefix, concurrency: WORKER_CONCURRENCY },
      ),
  );
  const isBaselineComplete = await waitFor(
    async () => (baselineDrifts.length >= SCHEDULERS ? true : undefined),
    'every baseline job',
    baselineDueAt - Date.now() + FIRING_TIMEOUT_MS,
  ).then(
    () => true,
    () => false,
  );
  await Promise.all(baselineWorkers.map((worker) => worker.close()));

  // Database queries per firing, in this process, through the worker's processor and run starter.
  const countedSql = pgSql(counted.pool);
  const fireScheduler = createFireSchedulerProcessor({
    sql: countedSql,
    starter: createRunStarter({
      db: counted.prisma,
      sql: countedSql,
      enqueue: async (runId) => {
        await addJob(runsQueue, RUN_JOBS.runFlow, { runId });
      },
    }),
    schedules: schedulesQueue,
    log: pino({ level: 'silent' }),
  });
  const firingJob = (schedulerId: string, prevMillis: number) =>
    ({
      id: `repeat:${jobSchedulerId(schedulerId)}:${prevMillis}`,
      name: SCHEDULE_JOBS.fire.name,
      data: { schedulerId },
      opts: { ...SCHEDULE_JOBS.fire.options, prevMillis },
      timestamp: Date.now(),
    }) as unknown as Job;
  /** Schedulers inserted with Prisma (no job scheduler: only this phase fires them). */
  const insertSchedulers = async (label: string, howMany: number, extractorsEach: number) => {
    const ids: string[] = [];
    for (let i = 0; i < howMany; i++) {
      const extractors = await insertExtractors(`${label} ${i + 1}`, extractorsEach);
      const { id } = await db.scheduler.create({
        data: {
          userId,
          name: `${label} ${i + 1}`,
          description: 'schedules benchmark',
          scheduleType: 'DAILY',
          time: '03:00:00',
          timezone: 'UTC',
          extractors: { createMany: { data: extractors.map((extractorId) => ({ extractorId })) } },
        },
        select: { id: true },
      });
      ids.push(id);
    }
    return ids;
  };
  /** Fires each scheduler once, one after another: statements counted, outcomes summed. */
  const fireInTurn = async (ids: readonly string[], prevMillis: number) => {
    statements.take();
    const outcomes = { started: 0, skipped: 0, other: 0 };
    const started = performance.now();
    for (const id of ids) {
      const outcome = await fireScheduler(firingJob(id, prevMillis));
      if ('started' in outcome) {
        outcomes.started += outcome.started;
        outcomes.skipped += outcome.skipped;
        outcomes.other += outcome.alreadyFired;
      } else outcomes.other += 1;
    }
    return { msEach: (performance.now() - started) / ids.length, outcomes, counted: statements.take() };
  };
  const [warmUpId, ...narrowIds] = await insertSchedulers('Counted', QUERY_FIRINGS + 1, 1);
  const wideIds = await insertSchedulers('Wide', WIDE_FIRINGS, WIDE_SCHEDULER_EXTRACTORS);
  await fireInTurn([warmUpId!], dueAt);
  const narrow = await fireInTurn(narrowIds, dueAt);
  const wide = await fireInTurn(wideIds, dueAt);
  const skipped = await fireInTurn(schedulerIds.slice(0, QUERY_FIRINGS), dueAt + DAY_MS);
  const perExtractor =
    (total(wide.counted) / WIDE_FIRINGS - total(narrow.counted) / QUERY_FIRINGS) /
    (WIDE_SCHEDULER_EXTRACTORS - 1);

  // ---------------------------------------------------------------------------------------------
  const lastQueuedMs = Math.max(...queuedAt) - dueAt;
  const baselineP95 = percentile(baselineDrifts, 95);
  const productP95 = percentile(drifts, 95);
  console.log(
    `\nPagewright schedules benchmark: ${count(SCHEDULERS)} schedulers due at ${due.toISOString()}, ` +
      `${workers.length} workers (firing concurrency ${WORKER_CONCURRENCY} each), ${useBuild ? 'build' : 'sources'}, ` +
      `${os.cpus().length} cores, 1-min load average ${loadAtStart.toFixed(1)} at start / ` +
      `${os.loadavg()[0]!.toFixed(1)} at end, ${new Date().toISOString()}`,
  );
  console.log(
    'The runs queue was paused: runs were created and queued, none ran (firing is measured, not flows).',
  );
  line(
    `schedulers saved through the API (${SAVES_AT_ONCE} at a time)`,
    `${count(SCHEDULERS)} in ${seconds(savingMs)} (${(savingMs / SCHEDULERS).toFixed(1)} ms each); ` +
      `job schedulers due at the minute: ${count(dueJobSchedulers)}/${count(jobSchedulers.length)}`,
  );
  line(
    'firings recorded',
    `${count(firings.length)}/${count(SCHEDULERS)}${isComplete ? '' : ` (timed out ${seconds(FIRING_TIMEOUT_MS)} after the minute)`}`,
  );
  line(
    `runs created (goal ${count(SCHEDULERS)})`,
    `${count(runs.length)}; run jobs in the runs queue ${count(runJobsQueued)}`,
  );
  line(
    'duplicate runs per (scheduler, time) (goal 0)',
    `${duplicateRuns}; firings found already handled: ${perWorker.reduce((n, w) => n + w.alreadyFired, 0)}; ` +
      `failed firing jobs: ${failedFiringJobs}`,
  );
  line(
    'firings skipped',
    skipReasons.size === 0 ? '0' : [...skipReasons].map(([reason, n]) => `${n} × ${reason}`).join('; '),
  );
  line(
    'firing drift, run queued − scheduled (product)',
    `${spread(drifts)} (goal p95 ≤ ${seconds(GOAL_DRIFT_P95_MS)})`,
  );
  line(
    '    of which: firing job taken by a worker − scheduled',
    `${spread(pickupDrifts)} (${count(pickupDrifts.length)} jobs)`,
  );
  line(
    'bare job schedulers, no-op worker − scheduled (baseline)',
    `${spread(baselineDrifts)}${isBaselineComplete ? '' : ' (timed out)'}`,
  );
  line('p95 product / baseline', `${(productP95 / baselineP95).toFixed(1)}×`);
  line('the minute → last run queued', seconds(lastQueuedMs));
  line(
    'firings per worker (their "scheduler fired" lines)',
    perWorker.map((w) => count(w.firings)).join(' + '),
  );
  line(
    `db statements per firing, 1 extractor (${count(QUERY_FIRINGS)} fired in turn)`,
    `${total(narrow.counted) / QUERY_FIRINGS} (${kinds(narrow.counted, QUERY_FIRINGS)}); ${narrow.msEach.toFixed(1)} ms each`,
  );
  line(
    `db statements per firing, ${WIDE_SCHEDULER_EXTRACTORS} extractors (${WIDE_FIRINGS} fired)`,
    `${total(wide.counted) / WIDE_FIRINGS} (${kinds(wide.counted, WIDE_FIRINGS)}); ${wide.msEach.toFixed(1)} ms each`,
  );
  line(
    '    per extractor / per firing besides',
    `${+perExtractor.toFixed(2)} / ${+(total(narrow.counted) / QUERY_FIRINGS - perExtractor).toFixed(2)}`,
  );
  line(
    `db statements per skipped firing (extractor EXECUTING)`,
    `${total(skipped.counted) / QUERY_FIRINGS} (${kinds(skipped.counted, QUERY_FIRINGS)}); ${skipped.msEach.toFixed(1)} ms each`,
  );
  const expected = [
    [narrow, { started: QUERY_FIRINGS, skipped: 0, other: 0 }],
    [wide, { started: WIDE_FIRINGS * WIDE_SCHEDULER_EXTRACTORS, skipped: 0, other: 0 }],
    [skipped, { started: 0, skipped: QUERY_FIRINGS, other: 0 }],
  ] as const;
  for (const [phase, outcomes] of expected)
    if (JSON.stringify(phase.outcomes) !== JSON.stringify(outcomes))
      console.log(
        `warning: counted firings ended ${JSON.stringify(phase.outcomes)}, not ${JSON.stringify(outcomes)}`,
      );
  if (queuedAt.length !== runs.length)
    console.log(`warning: ${runs.length - queuedAt.length} runs have no job in the runs queue`);
  console.log(
    'Statements: every query the pg pool sent, by first word, BEGIN and COMMIT included. Drift: the run ' +
      "job's timestamp (taken when the worker queued it) minus the firing's scheduledFor.",
  );
} finally {
  await counted.prisma.$disconnect();
  await counted.pool.end();
  await db.$disconnect();
  await stack.stop();
  // The stack drops its database; its queues' keys go here.
  for (const queue of [runsQueue, schedulesQueue, baselineQueue]) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
  connection.disconnect();
}
