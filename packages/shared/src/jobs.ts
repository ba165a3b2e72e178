import { z } from 'zod';
import { failedBoxSchema, templateMismatchSchema } from './contracts/recognition.js';
import { defineJob } from './define-job.js';

/**
 * The job catalogue: every BullMQ queue and, per queue (`*_JOBS`), each kind of job declared once
 * with defineJob: its name, payload and result schemas and how it is queued. The API and the
 * worker queue through it (addJob, jobOf) and the worker handles each kind of a queue (its handler
 * map is checked against the queue's `*_JOBS`), so a renamed job or a payload of the wrong shape
 * breaks the build, not production. What is on the wire (queue and job names, job ids, options,
 * payloads) must stay readable by the deployed workers and the jobs already in Redis.
 */
export const QUEUES = {
  maintenance: 'pagewright-maintenance',
  runs: 'pagewright-runs',
  /** Firings of users' schedulers: one BullMQ job scheduler per Pagewright scheduler. */
  schedules: 'pagewright-schedules',
  /** E-mail the worker sends for others (retried while the mail server is away). */
  mail: 'pagewright-mail',
  /** PDFs: a template's sample turned into page images, statements read with a template. */
  recognition: 'pagewright-recognition',
  /** Rows of engine datasets sent to the F-engine (docs/f-engine.md), and the sweep that re-queues them. */
  fengineImport: 'pagewright-fengine-import',
  /** Signed webhook deliveries (issue 26): one job per delivery, retried over about a day. */
  webhooks: 'pagewright-webhooks',
  /** Bulk runs (issue 26): the driver that starts their items' runs, a few at a time per user. */
  bulkRuns: 'pagewright-bulk-runs',
} as const;

/** BullMQ's key prefix for a deployment: queues of deployments sharing one Redis stay apart. */
export function queuePrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}bull`;
}

/** The payload of the periodic jobs: they read what to do from the database. */
const noPayloadSchema = z.object({});
/** The periodic jobs keep only their last few runs. */
const PERIODIC_JOB_OPTIONS = { removeOnComplete: { count: 10 }, removeOnFail: { count: 10 } } as const;

export const purgeExpiredSessionsPayloadSchema = z.object({
  /** Keep revoked/expired rows this long for audit before deleting them. */
  retentionDays: z.number().int().min(0).default(7),
});
export type PurgeExpiredSessionsPayload = z.infer<typeof purgeExpiredSessionsPayloadSchema>;

/** How often the worker purges expired sessions, tokens and never-confirmed sign-ups. */
export const PURGE_EXPIRED_SESSIONS_EVERY_MS = 60 * 60 * 1000;

export const MAINTENANCE_JOBS = {
  /** The periodic purge (its job scheduler's key is its name; /health looks for it). */
  purgeExpiredSessions: defineJob({
    queue: QUEUES.maintenance,
    name: 'purge-expired-sessions',
    payload: purgeExpiredSessionsPayloadSchema,
    result: z.object({
      refreshTokenFamilies: z.number().int(),
      loginTokens: z.number().int(),
      unconfirmedUsers: z.number().int(),
    }),
    options: {},
  }),
} as const;

/** `userId`: the run's owner, whose fair share of the workers it takes (fair-share.ts). */
export const runFlowPayloadSchema = z.object({
  runId: z.string().uuid(),
  userId: z.string().uuid().optional(),
});
export type RunFlowPayload = z.infer<typeof runFlowPayloadSchema>;

/** Jobs of QUEUES.runs. */
export const RUN_JOBS = {
  /**
   * One recorded flow run in a fresh browser context. Its job id is the run's (a run is queued at
   * most once), one attempt (a flow that typed into a site is not replayed behind the operator's
   * back). Answers the run's end status (MISSING: the run was gone).
   */
  runFlow: defineJob({
    queue: QUEUES.runs,
    name: 'run-flow',
    payload: runFlowPayloadSchema,
    result: z.object({ status: z.string() }),
    options: { attempts: 1, removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } },
    jobId: ({ runId }) => runId,
  }),
} as const;

export const fireSchedulerPayloadSchema = z.object({ schedulerId: z.string().uuid() });
export type FireSchedulerPayload = z.infer<typeof fireSchedulerPayloadSchema>;

/** Jobs of QUEUES.schedules. */
export const SCHEDULE_JOBS = {
  /**
   * A firing, queued by the scheduler's job scheduler: retried when the database was away (a
   * retry is harmless: each extractor's run or skip is recorded once per firing, by a unique key).
   * Answers what it did, or that its scheduler is gone (stale) or does not fire that day.
   */
  fire: defineJob({
    queue: QUEUES.schedules,
    name: 'fire-scheduler',
    payload: fireSchedulerPayloadSchema,
    result: z.union([
      z.object({ started: z.number().int(), skipped: z.number().int(), alreadyFired: z.number().int() }),
      z.object({ stale: z.literal(true) }),
      z.object({ notThisDay: z.literal(true) }),
    ]),
    options: {
      attempts: 3,
      backoff: { type: 'fixed', delay: 5_000 },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 1000 },
    },
  }),
} as const;

export const sendMailPayloadSchema = z.object({
  to: z.string().min(1),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
});
export type SendMailPayload = z.infer<typeof sendMailPayloadSchema>;
/** MAIL_JOBS.sendMessage: only the recipient row; no token or text travels through Redis. */
export const sendMessageMailPayloadSchema = z.object({ recipientId: z.string().uuid() });
export type SendMessageMailPayload = z.infer<typeof sendMessageMailPayloadSchema>;
/** The job id of a recipient's e-mail: one job at a time per recipient. */
export const messageMailJobId = (recipientId: string) => `message-mail-${recipientId}`;
/** A mail server that is away gets the mail later: 8 tries over about half an hour. */
const SEND_MAIL_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 15_000 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 1000 },
} as const;

/** Jobs of QUEUES.mail. */
export const MAIL_JOBS = {
  send: defineJob({
    queue: QUEUES.mail,
    name: 'send-mail',
    payload: sendMailPayloadSchema,
    result: z.void(),
    options: SEND_MAIL_JOB_OPTIONS,
  }),
  /** One recipient's e-mail of a message: the worker mints their link token when it sends it. */
  sendMessage: defineJob({
    queue: QUEUES.mail,
    name: 'send-message-mail',
    payload: sendMessageMailPayloadSchema,
    result: z.void(),
    options: SEND_MAIL_JOB_OPTIONS,
    jobId: ({ recipientId }) => messageMailJobId(recipientId),
  }),
  /**
   * The outbox's periodic job (issue 24): queues again the message e-mails still PENDING a while
   * after their message was stored (their job was lost, or never queued).
   */
  requeuePendingMessageMails: defineJob({
    queue: QUEUES.mail,
    name: 'requeue-pending-message-mails',
    payload: noPayloadSchema,
    result: z.object({ requeued: z.number().int() }),
    options: PERIODIC_JOB_OPTIONS,
  }),
} as const;

export const fengineImportPayloadSchema = z.object({ datasetId: z.string().uuid() });
/** One import job at a time per dataset (a second is not queued while one waits or runs). */
export const fengineImportJobId = (datasetId: string) => `fengine-import-${datasetId}`;

/** Jobs of QUEUES.fengineImport. */
export const FENGINE_IMPORT_JOBS = {
  /**
   * Sends one engine dataset's pending rows to the configured F-engine. An engine that is away
   * gets the rows later: 8 tries, exponential from the worker's FENGINE_IMPORT_RETRY_SECONDS (its
   * call sets the delay); after that the rows stay pending and the sweep queues them again.
   * Finished jobs go at once so the next fill or sweep can queue the dataset again under its id.
   */
  importDataset: defineJob({
    queue: QUEUES.fengineImport,
    name: 'fengine-import-dataset',
    payload: fengineImportPayloadSchema,
    result: z.union([
      z.object({ created: z.number().int(), updated: z.number().int(), rejected: z.number().int() }),
      z.object({ skipped: z.string() }),
    ]),
    options: {
      attempts: 8,
      backoff: { type: 'exponential', delay: 5_000 },
      removeOnComplete: true,
      removeOnFail: true,
    },
    jobId: ({ datasetId }) => fengineImportJobId(datasetId),
  }),
  /** The periodic job: queues an import for every engine dataset with rows still waiting. */
  sweep: defineJob({
    queue: QUEUES.fengineImport,
    name: 'fengine-import-sweep',
    payload: noPayloadSchema,
    result: z.object({ queued: z.number().int() }),
    options: PERIODIC_JOB_OPTIONS,
  }),
} as const;

/** WEBHOOK_JOBS.deliver: the WebhookDelivery row (its payload and endpoint are read from it). */
export const deliverWebhookPayloadSchema = z.object({ deliveryId: z.string().uuid() });
export type DeliverWebhookPayload = z.infer<typeof deliverWebhookPayloadSchema>;
/**
 * How many attempts and how far apart is the worker's to decide (WEBHOOK_MAX_ATTEMPTS,
 * WEBHOOK_RETRY_FIRST_DELAY_MS, its backoff strategy): a delivery's job allows at most this many,
 * and the processor ends the chain at the configured count by returning.
 */
export const WEBHOOK_JOB_ATTEMPTS_CEILING = 50;

/** Jobs of QUEUES.webhooks. */
export const WEBHOOK_JOBS = {
  /** One delivery; answers the delivery's status after this attempt. */
  deliver: defineJob({
    queue: QUEUES.webhooks,
    name: 'deliver-webhook',
    payload: deliverWebhookPayloadSchema,
    result: z.object({ status: z.string() }),
    options: {
      attempts: WEBHOOK_JOB_ATTEMPTS_CEILING,
      backoff: { type: 'webhook' },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 1000 },
    },
    jobId: ({ deliveryId }) => `webhook-${deliveryId}`,
  }),
} as const;

export const advanceBulkRunsPayloadSchema = z.object({ userId: z.string().uuid() });
export type AdvanceBulkRunsPayload = z.infer<typeof advanceBulkRunsPayloadSchema>;
/** How often the bulk-run sweep runs. */
export const BULK_RUN_SWEEP_EVERY_MS = 30_000;

/** Jobs of QUEUES.bulkRuns. */
export const BULK_RUN_JOBS = {
  /**
   * Starts the next PENDING items of a user's bulk runs while the user has room (per-user cap);
   * answers how many it started. An advance is idempotent (the driver counts and claims under a
   * per-user lock): jobs are not deduplicated, so a wake-up that arrives while one runs is never lost.
   */
  advance: defineJob({
    queue: QUEUES.bulkRuns,
    name: 'advance-bulk-runs',
    payload: advanceBulkRunsPayloadSchema,
    result: z.number().int(),
    options: {
      attempts: 3,
      backoff: { type: 'fixed', delay: 2_000 },
      removeOnComplete: true,
      removeOnFail: { count: 100 },
    },
  }),
  /**
   * The periodic job: items whose run ended without the driver hearing of it (a worker died) take
   * the run's end, items claimed by a dead worker go back to PENDING, and every user with pending
   * items is advanced.
   */
  sweep: defineJob({
    queue: QUEUES.bulkRuns,
    name: 'sweep-bulk-runs',
    payload: noPayloadSchema,
    result: z.object({ repaired: z.number().int(), users: z.number().int() }),
    options: PERIODIC_JOB_OPTIONS,
  }),
} as const;

/** RECOGNITION_JOBS.renderTemplate: the sample PDF (a stored file) to turn into the template's pages. */
export const renderTemplatePayloadSchema = z.object({
  userId: z.string().uuid(),
  templateId: z.string().uuid(),
  fileId: z.string().uuid(),
});
export type RenderTemplatePayload = z.infer<typeof renderTemplatePayloadSchema>;
/**
 * RECOGNITION_JOBS.recognizePdf: one RecognitionJob row (its PDF and template). `userId`: the
 * job's owner, whose fair share of the workers it takes (fair-share.ts).
 */
export const recognizePdfPayloadSchema = z.object({
  recognitionJobId: z.string().uuid(),
  userId: z.string().uuid().optional(),
});
export type RecognizePdfPayload = z.infer<typeof recognizePdfPayloadSchema>;
export type RecognitionPayload = RenderTemplatePayload | RecognizePdfPayload;
/** What a finished recognize-pdf job answers (the API waits for it). */
export const recognizePdfResultSchema = z.object({
  pageCount: z.number().int(),
  text: z.string(),
  /** Why the file does not match its template (empty: it does). */
  mismatches: z.array(templateMismatchSchema).default([]),
  failedBoxes: z.array(failedBoxSchema).default([]),
});
export type RecognizePdfResult = z.input<typeof recognizePdfResultSchema>;
const RECOGNITION_JOB_OPTIONS = {
  // Later attempts are only for a job handed to a child that had just died: a job a child began
  // is not read again (apps/worker/src/processors/recognition.sandbox.ts). Every child of a worker
  // may have died at once (two by default): three attempts, a short pause between them so the
  // worker notices its dead children before the next one.
  attempts: 3,
  backoff: { type: 'fixed', delay: 300 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 24 * 3600, count: 1000 },
} as const;

/**
 * Jobs of QUEUES.recognition, run in a pool of child processes of the worker (every core works).
 * Their callers name them (`render-<file id>`, the RecognitionJob row's id) and set their priority
 * from that id (fair shares).
 */
export const RECOGNITION_JOBS = {
  renderTemplate: defineJob({
    queue: QUEUES.recognition,
    name: 'render-template',
    payload: renderTemplatePayloadSchema,
    result: z.object({ pageCount: z.number().int() }),
    options: RECOGNITION_JOB_OPTIONS,
  }),
  recognizePdf: defineJob({
    queue: QUEUES.recognition,
    name: 'recognize-pdf',
    payload: recognizePdfPayloadSchema,
    result: recognizePdfResultSchema,
    options: RECOGNITION_JOB_OPTIONS,
  }),
} as const;
