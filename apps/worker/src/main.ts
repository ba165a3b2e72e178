import { randomUUID } from 'node:crypto';
import { Queue, type QueueBase, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createDatabase, createFileStorage, createRunStarter, createSecretBox, pgSql } from '@pagewright/db';
import { createMailer } from '@pagewright/mail';
import {
  BULK_RUN_JOBS,
  BULK_RUN_SWEEP_EVERY_MS,
  FENGINE_IMPORT_JOBS,
  advanceBulkRunsPayloadSchema,
  type AdvanceBulkRunsPayload,
  MAIL_JOBS,
  MAINTENANCE_JOBS,
  QUEUES,
  RUN_JOBS,
  SCHEDULE_JOBS,
  WEBHOOK_JOBS,
  addJob,
  type DeliverWebhookPayload,
  RUN_WAIT_TTL_MS,
  enqueueFairly,
  userShareOf,
  sendMailPayloadSchema,
  type FireSchedulerPayload,
  type RunFlowPayload,
  type SendMailPayload,
  SESSION_QUEUES,
  WORKER_HEARTBEAT_EVERY_MS,
  WORKER_HEARTBEAT_TTL_MS,
  databaseTimeoutsOf,
  publishLiveEvent,
  queuePrefix,
  workerBrowsersKey,
  workerHeartbeatKey,
} from '@pagewright/shared';
import { createBrowserPool } from './browser-pool.js';
import { operatorEngineEgress } from './fengine/engine-policy.js';
import { dispatchJobs } from './job-dispatch.js';
import { fairly, slotOwnerOf } from './fair-share.js';
import { loadConfig } from './config.js';
import { createRunStore } from './flows/run-store.js';
import { failStoppedRun, type StalledRunsDeps } from './flows/stalled-runs.js';
import { createLiveSessionRegistry } from './sessions/live-session-registry.js';
import { createLiveViews } from './sessions/live-view.js';
import { createSessionCommandProcessor } from './processors/session-command.processor.js';
import { purgeExpiredSessions } from './processors/purge-expired-sessions.processor.js';
import { createRunFlowProcessor } from './processors/run-flow.processor.js';
import { createSendMessageMailProcessor } from './processors/send-message-mail.processor.js';
import { createMessageMailRequeue, scheduleMessageMailRequeue } from './messages/message-outbox.js';
import { createFireSchedulerProcessor } from './processors/fire-scheduler.processor.js';
import { createJobSchedulerReconciler } from './schedules/reconcile-job-schedulers.js';
import {
  createEngineImportProcessor,
  createEngineImportSweep,
  queueEngineImport,
  scheduleEngineImportSweep,
} from './processors/fengine-import.processor.js';
import { RUN_JOB_TTL_SECONDS, SESSION_JOB_TTL_SECONDS, createKeyExpiry } from './redis-ttl.js';
import {
  createWebhookDeliveryProcessor,
  webhookRetryDelay,
} from './processors/webhook-delivery.processor.js';
import { createWebhookEvents } from './webhooks/webhook-events.js';
import { createBulkRunDriver, scheduleBulkRunSweep } from './bulk-runs/bulk-run-driver.js';

const config = loadConfig();
/** This process's identity: live sessions live here, and their commands come to its own queue. */
const workerId = randomUUID();
const log = pino({ level: config.LOG_LEVEL, base: { service: 'worker', pid: process.pid, workerId } });

const engineEgress = operatorEngineEgress(config);
const navigationPolicy = {
  allowPrivateNetworks: config.NAVIGATION_ALLOW_PRIVATE_NETWORKS,
  allowedHosts: config.NAVIGATION_ALLOWED_HOSTS,
};
const browserPool = createBrowserPool({
  chromiumPath: config.CHROMIUM_PATH,
  navigationPolicy,
  viewport: { width: 1280, height: 800 },
  onNavigationRefused: (error) => log.warn({ url: error.url, reason: error.reason }, 'navigation refused'),
  endpoints: config.BROWSER_ENDPOINTS,
  useLocalBrowser: config.BROWSER_LOCAL,
  healthIntervalMs: config.BROWSER_HEALTH_SECONDS * 1000,
  // Names and addresses only: an endpoint's token is never logged.
  onTargetStateChanged: ({ name, url, state, reason }) =>
    (state === 'UP' ? log.info : log.warn).call(
      log,
      { browser: name, url, state, reason },
      'browser host state',
    ),
});
browserPool.onBrowserLost((reason) => log.error({ reason }, 'browser lost; its runs end ERROR'));
await browserPool.start();
// Browser work is this process's job: refuse to start with no browser that opens a page, rather
// than fail the first run a user starts.
const probe = await browserPool.newContext();
log.info(
  {
    chromium: probe.browser()?.version(),
    path: config.CHROMIUM_PATH,
    browsers: browserPool.status().map(({ name, url, state }) => ({ name, url, state })),
  },
  'chromium available',
);
await probe.close();

// One pool for Prisma and the few hot statements written in SQL (a firing's run starts).
const { prisma: db, pool } = createDatabase(config.DATABASE_URL, { timeouts: databaseTimeoutsOf(config) });
const sql = pgSql(pool);
// BullMQ workers block on Redis: they need their own connection without a retry cap.
const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
const keyExpiry = createKeyExpiry(connection);

const liveViews = createLiveViews({ redis: connection, keyPrefix: config.REDIS_KEY_PREFIX, log });
await liveViews.start();
const liveSessions = createLiveSessionRegistry({
  pool: browserPool,
  idleTimeoutMs: config.LIVE_SESSION_IDLE_MINUTES * 60_000,
  onPageAttached: (session) => void liveViews.attach(session),
  onSessionEnded: (session, reason) => {
    log.info({ sessionId: session.id, reason }, 'live session ended');
    void liveViews.detach(session.id);
    if (reason !== 'closed')
      void publishLiveEvent(connection, config.REDIS_KEY_PREFIX, session.userId, {
        type: 'session-lost',
        sessionId: session.id,
        reason: reason === 'idle' ? 'closed after being idle' : 'the browser stopped',
      }).catch(() => undefined);
  },
});
const idleSweep = setInterval(() => void liveSessions.closeIdle(), 60_000);

const prefix = queuePrefix(config.REDIS_KEY_PREFIX);
// Its job scheduler is kept by the reconciler below (created at start, put back when Redis lost it).
const maintenanceQueue = new Queue(QUEUES.maintenance, { connection, prefix });

const maintenanceWorker = new Worker(
  QUEUES.maintenance,
  dispatchJobs(MAINTENANCE_JOBS, {
    purgeExpiredSessions: async (job) => {
      const result = await purgeExpiredSessions(db, job.data, config.UNCONFIRMED_SIGNUP_RETENTION_DAYS);
      log.child({ jobId: job.id, job: job.name }).info(result, 'purged expired sessions');
      return result;
    },
  }),
  { connection, prefix, concurrency: 1 },
);
maintenanceWorker.on('failed', (job, error) => log.error({ jobId: job?.id, err: error }, 'job failed'));

// E-mail this worker sends (a scheduled run's ask, for now) goes through a queue: a mail server
// that is away gets it on a later attempt, and nothing waits on it.
const mailer = createMailer(config);
const mailQueue = new Queue<SendMailPayload>(QUEUES.mail, { connection, prefix });
const sendMail = async (mail: SendMailPayload) => {
  await addJob(mailQueue, MAIL_JOBS.send, mail);
};
const processMessageMail = createSendMessageMailProcessor({
  db,
  mailer,
  publicUrl: config.PUBLIC_URL,
  linkTtlDays: config.MESSAGE_LINK_TTL_DAYS,
  log,
});
// The message outbox (issue 24): message e-mails still PENDING a while after they were stored are
// queued again by a job of the mail queue, its scheduler kept at start and when Redis comes back.
const requeueMessageMails = createMessageMailRequeue({
  db,
  queue: mailQueue,
  retryAfterMs: config.MESSAGE_MAIL_REQUEUE_AFTER_SECONDS * 1000,
  log,
});
const scheduleRequeue = () =>
  scheduleMessageMailRequeue(mailQueue, config.MESSAGE_MAIL_REQUEUE_EVERY_SECONDS * 1000).catch(
    (error: unknown) => log.error({ err: error }, 'could not schedule the message e-mail re-queue'),
  );
await scheduleRequeue();
connection.on('ready', () => void scheduleRequeue());
const mailWorker = new Worker(
  QUEUES.mail,
  keyExpiry.expiringJobs(
    RUN_JOB_TTL_SECONDS,
    dispatchJobs(MAIL_JOBS, {
      send: async (job) => mailer.send(sendMailPayloadSchema.parse(job.data)),
      sendMessage: processMessageMail,
      requeuePendingMessageMails: () => requeueMessageMails(),
    }),
  ),
  { connection, prefix, concurrency: 2 },
);
mailWorker.on('failed', (job, error) =>
  log.warn({ jobId: job?.id, attempt: job?.attemptsMade, err: error }, 'could not send an e-mail (retried)'),
);

/**
 * Loaded first in each recognition child, before BullMQ's code and the PDF libraries (which take
 * seconds to load): a worker that dies closes the children's IPC channel, and each child then ends
 * at once instead of reading on, or idling with its connections open, orphaned (issue 24).
 */
const EXIT_WITH_WORKER = `data:text/javascript,${encodeURIComponent(
  "process.once('disconnect', () => process.exit(1));",
)}`;
// Recognition (issue 15): PDFs are read in child processes BullMQ keeps (one job each at a time),
// from the bundle's own file, or the TypeScript source when the worker runs from source.
const recognitionProcessor = import.meta.url.endsWith('.ts')
  ? new URL('./processors/recognition.sandbox.ts', import.meta.url)
  : new URL('./recognition.sandbox.js', import.meta.url);
const recognitionWorker = new Worker(QUEUES.recognition, recognitionProcessor, {
  connection,
  prefix,
  concurrency: config.RECOGNITION_CONCURRENCY,
  // A child busy on a long PDF still renews its lock through the parent; a dead worker's jobs fail.
  lockDuration: 60_000,
  maxStalledCount: 0,
  // Each child's V8 heap is capped (issue 24): PDF.js's objects for a hostile PDF end that child,
  // not the machine (its canvases are native memory, capped per page and box by the recognition).
  // And each child ends with this worker, from its first line on (EXIT_WITH_WORKER).
  workerForkOptions: {
    execArgv: [
      ...process.execArgv,
      `--max-old-space-size=${config.RECOGNITION_HEAP_MB}`,
      `--import=${EXIT_WITH_WORKER}`,
    ],
  },
});
recognitionWorker.on('failed', (job, error) => {
  log.warn({ jobId: job?.id, name: job?.name, err: error }, 'a recognition job failed');
  void keyExpiry.expireFinished(job, RUN_JOB_TTL_SECONDS);
});
// Its hash (payload and answer) expires like a run's: the API has read the answer by then.
recognitionWorker.on('completed', (job) => void keyExpiry.expireFinished(job, RUN_JOB_TTL_SECONDS));

// Schedulers: BullMQ job schedulers fire them; this worker reconciles those with PostgreSQL first.
const runsQueue = new Queue<RunFlowPayload>(QUEUES.runs, { connection, prefix });
const schedulesQueue = new Queue<FireSchedulerPayload>(QUEUES.schedules, { connection, prefix });
const runStarter = createRunStarter({
  db,
  sql,
  enqueue: async (runId, userId) => {
    // Fair shares (issue 24): a firing's run gets its priority from its owner's runs in flight.
    const priority = await enqueueFairly(connection, config.REDIS_KEY_PREFIX, 'runs', {
      userId,
      jobId: runId,
      waitTtlMs: RUN_WAIT_TTL_MS,
    });
    await addJob(runsQueue, RUN_JOBS.runFlow, { runId, userId }, { priority });
  },
});
const reconciler = createJobSchedulerReconciler({
  db,
  queue: schedulesQueue,
  maintenance: maintenanceQueue,
  maintenanceData: { retentionDays: config.SESSION_RETENTION_DAYS },
  log,
});
const reconcile = (why: string) =>
  reconciler
    .reconcile()
    .then((counts) => {
      const isChange = counts.created + counts.changed + counts.removed > 0 || counts.maintenanceRestored;
      // A pass that found Redis as it should be is the usual case: not worth a line every minute.
      log[isChange ? 'warn' : 'debug']({ ...counts, why }, 'job schedulers reconciled');
    })
    .catch((error: unknown) => log.error({ err: error, why }, 'could not reconcile the job schedulers'));
await reconciler
  .reconcile()
  .then((counts) => log.info({ ...counts, why: 'start' }, 'job schedulers reconciled'));
// A Redis that restarted without its data (no persistence, a failover to an empty replica) loses
// every job scheduler: they come back as soon as the connection does, and every
// JOB_SCHEDULER_RECONCILE_SECONDS for a loss without a reconnect (FLUSHALL, eviction).
connection.on('ready', () => void reconcile('reconnect'));
const reconcileTimer = setInterval(
  () => void reconcile('timer'),
  config.JOB_SCHEDULER_RECONCILE_SECONDS * 1000,
);
const schedulesWorker = new Worker(
  QUEUES.schedules,
  keyExpiry.expiringJobs(
    RUN_JOB_TTL_SECONDS,
    dispatchJobs(SCHEDULE_JOBS, {
      fire: createFireSchedulerProcessor({ sql, starter: runStarter, schedules: schedulesQueue, log }),
    }),
  ),
  // A firing waits on the database, not the CPU: several go at once when many fall together.
  { connection, prefix, concurrency: 8 },
);
schedulesWorker.on('failed', (job, error) => log.error({ jobId: job?.id, err: error }, 'a firing failed'));

// Engine datasets (issue 25): a run's new and changed rows go to the F-engine through this queue;
// a sweep every FENGINE_IMPORT_SWEEP_SECONDS queues again the datasets whose rows still wait.
const fengineImportQueue = new Queue(QUEUES.fengineImport, { connection, prefix });
const queueEngineImports = async (datasetIds: readonly string[]) => {
  for (const datasetId of datasetIds)
    await queueEngineImport(fengineImportQueue, datasetId, config).catch((error: unknown) =>
      log.warn({ err: error, datasetId }, 'could not queue an F-engine import; the sweep will'),
    );
};
const processEngineImport = createEngineImportProcessor({
  db,
  sql,
  files: createFileStorage(db),
  config,
  log,
});
const sweepEngineImports = createEngineImportSweep({ db, queue: fengineImportQueue, config, log });
const scheduleEngineSweep = () =>
  scheduleEngineImportSweep(fengineImportQueue, config.FENGINE_IMPORT_SWEEP_SECONDS * 1000).catch(
    (error: unknown) => log.error({ err: error }, 'could not schedule the F-engine import sweep'),
  );
await scheduleEngineSweep();
connection.on('ready', () => void scheduleEngineSweep());
const fengineImportWorker = new Worker(
  QUEUES.fengineImport,
  keyExpiry.expiringJobs(
    RUN_JOB_TTL_SECONDS,
    dispatchJobs(FENGINE_IMPORT_JOBS, {
      importDataset: processEngineImport,
      sweep: () => sweepEngineImports(),
    }),
  ),
  // Imports wait on the engine, not the CPU; one job per dataset at a time (its job id).
  { connection, prefix, concurrency: 4 },
);
fengineImportWorker.on('failed', (job, error) =>
  log.warn({ jobId: job?.id, attempt: job?.attemptsMade, err: error }, 'an F-engine import failed'),
);

// Webhooks (issue 26): a run's events become WebhookDelivery rows and jobs of this queue, each
// retried by the custom backoff `webhook` (WEBHOOK_RETRY_*) until WEBHOOK_MAX_ATTEMPTS.
const webhooksQueue = new Queue<DeliverWebhookPayload>(QUEUES.webhooks, { connection, prefix });
const webhookEvents = createWebhookEvents({
  db,
  queue: webhooksQueue,
  publicUrl: config.PUBLIC_URL,
  sendMail,
  log,
});
const processWebhookDelivery = createWebhookDeliveryProcessor({
  db,
  secrets: config.ENCRYPTION_KEY ? createSecretBox(config.ENCRYPTION_KEY) : undefined,
  config,
  log,
});
const webhooksWorker = new Worker(
  QUEUES.webhooks,
  keyExpiry.expiringJobs(
    RUN_JOB_TTL_SECONDS,
    dispatchJobs(WEBHOOK_JOBS, { deliver: processWebhookDelivery }),
  ),
  {
    connection,
    prefix,
    // Deliveries wait on receivers (10 s at most each), not the CPU.
    concurrency: 16,
    settings: {
      backoffStrategy: (attemptsMade: number, type?: string) =>
        type === 'webhook' ? webhookRetryDelay(config, attemptsMade) : 0,
    },
  },
);
webhooksWorker.on('failed', (job, error) =>
  log.debug({ jobId: job?.id, attempt: job?.attemptsMade, err: error }, 'a webhook attempt failed'),
);

// Bulk runs (issue 26): the driver starts a user's pending items a few at a time; each run's end
// wakes it, and a sweep every BULK_RUN_SWEEP_EVERY_MS repairs what a dead worker left.
const bulkRunsQueue = new Queue<AdvanceBulkRunsPayload>(QUEUES.bulkRuns, { connection, prefix });
const bulkRuns = createBulkRunDriver({
  db,
  starter: runStarter,
  queue: bulkRunsQueue,
  maxRunningPerUser: config.BULK_RUN_CONCURRENCY_PER_USER,
  log,
});
const scheduleBulkSweep = () =>
  scheduleBulkRunSweep(bulkRunsQueue, BULK_RUN_SWEEP_EVERY_MS).catch((error: unknown) =>
    log.error({ err: error }, 'could not schedule the bulk-run sweep'),
  );
await scheduleBulkSweep();
connection.on('ready', () => void scheduleBulkSweep());
const bulkRunsWorker = new Worker(
  QUEUES.bulkRuns,
  keyExpiry.expiringJobs(
    RUN_JOB_TTL_SECONDS,
    dispatchJobs(BULK_RUN_JOBS, {
      advance: (job) => bulkRuns.advance(advanceBulkRunsPayloadSchema.parse(job.data).userId),
      sweep: () => bulkRuns.sweep(),
    }),
  ),
  // Advances wait on the database and Redis; each user's take turns on a lock of their own.
  { connection, prefix, concurrency: 4 },
);
bulkRunsWorker.on('failed', (job, error) =>
  log.warn({ jobId: job?.id, name: job?.name, err: error }, 'a bulk-run job failed'),
);

const runStore = createRunStore(db, createFileStorage(db), {
  onEngineRowsPending: queueEngineImports,
  onRunEnded: async (runId, end, datasetChanges) => {
    await bulkRuns
      .runEnded(runId, end)
      .catch((error: unknown) => log.error({ err: error, runId }, 'could not record a bulk-run item'));
    await webhookEvents
      .runEnded(runId, end, datasetChanges)
      .catch((error: unknown) => log.error({ err: error, runId }, 'could not queue the webhooks of a run'));
  },
});
const stalledRuns: StalledRunsDeps = {
  store: runStore,
  redis: connection,
  keyPrefix: config.REDIS_KEY_PREFIX,
  log,
};
const processRunFlow = createRunFlowProcessor({
  store: runStore,
  pool: browserPool,
  navigationPolicy,
  engineEgress,
  secrets: config.ENCRYPTION_KEY ? createSecretBox(config.ENCRYPTION_KEY) : undefined,
  redis: connection,
  keyPrefix: config.REDIS_KEY_PREFIX,
  askTimeoutMs: config.ASK_TIMEOUT_SECONDS * 1000,
  stepValueMaxBytes: config.STEP_VALUE_MAX_BYTES,
  sendMail,
  dashboardUrl: new URL('/dashboard', config.PUBLIC_URL).href,
  log,
});
const processSessionCommand = createSessionCommandProcessor({
  workerId,
  sessions: liveSessions,
  views: liveViews,
  pool: browserPool,
  store: runStore,
  secrets: config.ENCRYPTION_KEY ? createSecretBox(config.ENCRYPTION_KEY) : undefined,
  redis: connection,
  keyPrefix: config.REDIS_KEY_PREFIX,
  askTimeoutMs: config.ASK_TIMEOUT_SECONDS * 1000,
  stepValueMaxBytes: config.STEP_VALUE_MAX_BYTES,
  navigationPolicy,
  engineEgress,
  log,
});
/** This worker's own session queue, once it exists. */
const ownQueues: QueueBase[] = [];
const heartbeatKey = workerHeartbeatKey(config.REDIS_KEY_PREFIX, workerId);
const beat = () =>
  Promise.all([
    connection.set(heartbeatKey, String(Date.now()), 'PX', WORKER_HEARTBEAT_TTL_MS),
    connection.set(
      workerBrowsersKey(config.REDIS_KEY_PREFIX, workerId),
      JSON.stringify(browserPool.status()),
      'PX',
      WORKER_HEARTBEAT_TTL_MS,
    ),
    // This worker's session queue and the jobs it holds lapse soon after it is gone.
    keyExpiry.renew(ownQueues),
  ]).catch((error: unknown) => log.warn({ err: error }, 'heartbeat failed'));
await beat();
const heartbeat = setInterval(() => void beat(), WORKER_HEARTBEAT_EVERY_MS);
const processExpiringSessionCommand = keyExpiry.expiringJobs(SESSION_JOB_TTL_SECONDS, processSessionCommand);
// Opening goes to whichever worker is free; the session's later commands come to this worker's
// own queue. Commands wait on pages and Redis, not CPU: several sessions proceed at once.
const sessionOpenWorker = new Worker(SESSION_QUEUES.open, processExpiringSessionCommand, {
  connection,
  prefix,
  concurrency: 2,
});
const sessionCommandWorker = new Worker(SESSION_QUEUES.ofWorker(workerId), processExpiringSessionCommand, {
  connection,
  prefix,
  concurrency: 8,
});
ownQueues.push(sessionCommandWorker);
for (const worker of [sessionOpenWorker, sessionCommandWorker])
  worker.on('failed', (job, error) => log.error({ jobId: job?.id, err: error }, 'session command failed'));

const runsWorker = new Worker(
  QUEUES.runs,
  // Fair shares (issue 24) before the lease on the job's hash: a job sent back to wait keeps none.
  fairly(
    {
      redis: connection,
      keyPrefix: config.REDIS_KEY_PREFIX,
      queue: 'runs',
      slotOwner: slotOwnerOf(process.pid),
      share: userShareOf(config.WORKER_RUN_CONCURRENCY),
      leaseMs: config.RUN_LOCK_SECONDS * 1000 * 2,
      onError: (error) => log.warn({ err: error }, 'fair share unavailable; the run starts anyway'),
    },
    keyExpiry.expiringJobs(RUN_JOB_TTL_SECONDS, dispatchJobs(RUN_JOBS, { runFlow: processRunFlow })),
  ),
  {
    connection,
    prefix,
    concurrency: config.WORKER_RUN_CONCURRENCY,
    // A worker that dies mid-run stops renewing its lock (30 s by default); the stalled check (at
    // half that, on any live worker) then fails the job instead of running the flow again
    // (maxStalledCount 0).
    lockDuration: config.RUN_LOCK_SECONDS * 1000,
    stalledInterval: (config.RUN_LOCK_SECONDS * 1000) / 2,
    maxStalledCount: 0,
  },
);
// Emitted here both for a processor that threw and for a job this worker's stalled check failed
// (its worker died): in both cases the run must not stay EXECUTING.
runsWorker.on('failed', (job, error) => {
  log.error({ jobId: job?.id, err: error }, 'run job failed');
  if (job)
    void failStoppedRun(stalledRuns, job.id ?? '').catch((e: unknown) =>
      log.error({ err: e }, 'could not end a failed run'),
    );
});

log.info(
  {
    queues: [
      QUEUES.maintenance,
      QUEUES.runs,
      QUEUES.schedules,
      QUEUES.mail,
      QUEUES.recognition,
      QUEUES.fengineImport,
      QUEUES.webhooks,
      SESSION_QUEUES.open,
      SESSION_QUEUES.ofWorker(workerId),
    ],
    runConcurrency: config.WORKER_RUN_CONCURRENCY,
    recognitionConcurrency: config.RECOGNITION_CONCURRENCY,
  },
  'worker ready',
);

async function shutdown(signal: string): Promise<void> {
  log.info({ signal }, 'shutting down');
  clearInterval(idleSweep);
  clearInterval(heartbeat);
  clearInterval(reconcileTimer);
  await connection
    .del(heartbeatKey, workerBrowsersKey(config.REDIS_KEY_PREFIX, workerId))
    .catch(() => undefined);
  await sessionOpenWorker.close(true);
  await sessionCommandWorker.close(true);
  // Runs in flight are not waited for (a WAIT can last a minute): their locks lapse and the API's
  // stopped-run sweep ends them ERROR.
  await runsWorker.close(true);
  await schedulesWorker.close();
  await mailWorker.close();
  await recognitionWorker.close();
  await fengineImportWorker.close();
  await webhooksWorker.close();
  await bulkRunsWorker.close();
  await Promise.all([
    runsQueue.close(),
    schedulesQueue.close(),
    mailQueue.close(),
    fengineImportQueue.close(),
    webhooksQueue.close(),
    bulkRunsQueue.close(),
  ]);
  mailer.close();
  await liveViews.stop();
  await browserPool.close();
  await maintenanceWorker.close();
  await maintenanceQueue.close();
  connection.disconnect();
  await db.$disconnect();
  await pool.end();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
