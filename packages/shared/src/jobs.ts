import { z } from 'zod';
import {
  dateMaskSchema,
  dialogAnswerSchema,
  pageDialogAnswerSchema,
  flowActionSchema,
  numberMaskSchema,
  pointSchema,
  stepValueSchema,
} from './contracts/automation.js';
import { sealedSecretJsonSchema } from './contracts/builder.js';
import { fserviceDtoSchema, managementDtoSchema } from './contracts/fengine.js';
import { failedBoxSchema, templateMismatchSchema } from './contracts/recognition.js';

/**
 * The job catalogue: every BullMQ queue, its job names and payloads. The API enqueues, the worker
 * processes; both import these so a renamed job breaks the build, not production.
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

export const MAINTENANCE_JOBS = {
  purgeExpiredSessions: 'purge-expired-sessions',
} as const;

export const purgeExpiredSessionsPayloadSchema = z.object({
  /** Keep revoked/expired rows this long for audit before deleting them. */
  retentionDays: z.number().int().min(0).default(7),
});
export type PurgeExpiredSessionsPayload = z.infer<typeof purgeExpiredSessionsPayloadSchema>;

/** How often the worker purges expired sessions, tokens and never-confirmed sign-ups. */
export const PURGE_EXPIRED_SESSIONS_EVERY_MS = 60 * 60 * 1000;

/** BullMQ's key prefix for a deployment: queues of deployments sharing one Redis stay apart. */
export function queuePrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}bull`;
}

/** Jobs of QUEUES.runs: one recorded flow run in a fresh browser context (job id = run id). */
export const RUN_JOBS = {
  runFlow: 'run-flow',
} as const;

/** `userId`: the run's owner, whose fair share of the workers it takes (fair-share.ts). */
export const runFlowPayloadSchema = z.object({
  runId: z.string().uuid(),
  userId: z.string().uuid().optional(),
});
export type RunFlowPayload = z.infer<typeof runFlowPayloadSchema>;

/**
 * A run's job: its id is the run's (a run is queued at most once), one attempt (a flow that typed
 * into a site is not replayed behind the operator's back).
 */
export function runFlowJobOptions(runId: string) {
  return { jobId: runId, attempts: 1, removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } };
}

/** Jobs of QUEUES.schedules. */
export const SCHEDULE_JOBS = {
  fire: 'fire-scheduler',
} as const;
export const fireSchedulerPayloadSchema = z.object({ schedulerId: z.string().uuid() });
export type FireSchedulerPayload = z.infer<typeof fireSchedulerPayloadSchema>;
/**
 * A firing's job: retried when the database was away (a retry is harmless: each extractor's run or
 * skip is recorded once per firing, by a unique key).
 */
export const FIRE_SCHEDULER_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'fixed', delay: 5_000 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 1000 },
};

/** Jobs of QUEUES.mail. */
export const MAIL_JOBS = {
  send: 'send-mail',
  /** One recipient's e-mail of a message: the worker mints their link token when it sends it. */
  sendMessage: 'send-message-mail',
  /**
   * The outbox's periodic job (issue 24): queues again the message e-mails still PENDING a while
   * after their message was stored (their job was lost, or never queued).
   */
  requeuePendingMessageMails: 'requeue-pending-message-mails',
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
/** A mail server that is away gets the mail later: 8 tries over about half an hour. */
export const SEND_MAIL_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 15_000 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 1000 },
} as const;

/** Jobs of QUEUES.fengineImport. */
export const FENGINE_IMPORT_JOBS = {
  /** Sends one engine dataset's pending rows to the configured F-engine. */
  importDataset: 'fengine-import-dataset',
  /** The periodic job: queues an import for every engine dataset with rows still waiting. */
  sweep: 'fengine-import-sweep',
} as const;
export const fengineImportPayloadSchema = z.object({ datasetId: z.string().uuid() });
export type FengineImportPayload = z.infer<typeof fengineImportPayloadSchema>;
/** One import job at a time per dataset (a second is not queued while one waits or runs). */
export const fengineImportJobId = (datasetId: string) => `fengine-import-${datasetId}`;
/**
 * An engine that is away gets the rows later: 8 tries, exponential from `firstDelayMs` (5 s: about
 * ten minutes in all); after that the rows stay pending and the sweep queues them again. Finished
 * jobs go at once so the next fill or sweep can queue the dataset again under the same id.
 */
export function fengineImportJobOptions(datasetId: string, firstDelayMs = 5_000) {
  return {
    jobId: fengineImportJobId(datasetId),
    attempts: 8,
    backoff: { type: 'exponential', delay: firstDelayMs },
    removeOnComplete: true,
    removeOnFail: true,
  } as const;
}

/** Jobs of QUEUES.webhooks. */
export const WEBHOOK_JOBS = {
  deliver: 'deliver-webhook',
} as const;
/** WEBHOOK_JOBS.deliver: the WebhookDelivery row (its payload and endpoint are read from it). */
export const deliverWebhookPayloadSchema = z.object({ deliveryId: z.string().uuid() });
export type DeliverWebhookPayload = z.infer<typeof deliverWebhookPayloadSchema>;
/**
 * A delivery's job. How many attempts and how far apart is the worker's to decide
 * (WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_FIRST_DELAY_MS, its backoff strategy): the job allows at
 * most this many, and the processor ends the chain at the configured count by returning.
 */
export const WEBHOOK_JOB_ATTEMPTS_CEILING = 50;
export function deliverWebhookJobOptions(deliveryId: string) {
  return {
    jobId: `webhook-${deliveryId}`,
    attempts: WEBHOOK_JOB_ATTEMPTS_CEILING,
    backoff: { type: 'webhook' },
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 1000 },
  } as const;
}

/** Jobs of QUEUES.bulkRuns. */
export const BULK_RUN_JOBS = {
  /** Starts the next PENDING items of a user's bulk runs while the user has room (per-user cap). */
  advance: 'advance-bulk-runs',
  /**
   * The periodic job: items whose run ended without the driver hearing of it (a worker died) take
   * the run's end, items claimed by a dead worker go back to PENDING, and every user with pending
   * items is advanced.
   */
  sweep: 'sweep-bulk-runs',
} as const;
export const advanceBulkRunsPayloadSchema = z.object({ userId: z.string().uuid() });
export type AdvanceBulkRunsPayload = z.infer<typeof advanceBulkRunsPayloadSchema>;
/**
 * An advance is idempotent (the driver counts and claims under a per-user lock): jobs are not
 * deduplicated, so a wake-up that arrives while one runs is never lost.
 */
export const ADVANCE_BULK_RUNS_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'fixed', delay: 2_000 },
  removeOnComplete: true,
  removeOnFail: { count: 100 },
} as const;
/** How often the bulk-run sweep runs. */
export const BULK_RUN_SWEEP_EVERY_MS = 30_000;

/** Jobs of QUEUES.recognition, run in a pool of child processes of the worker (every core works). */
export const RECOGNITION_JOBS = {
  renderTemplate: 'render-template',
  recognizePdf: 'recognize-pdf',
} as const;
/** RECOGNITION_JOBS.renderTemplate: the sample PDF (a stored file) to turn into the template's pages. */
export const renderTemplatePayloadSchema = z.object({
  userId: z.string().uuid(),
  templateId: z.string().uuid(),
  fileId: z.string().uuid(),
});
export type RenderTemplatePayload = z.infer<typeof renderTemplatePayloadSchema>;
/** RECOGNITION_JOBS.recognizePdf: one RecognitionJob row (its PDF and template). */
/** `userId`: the job's owner, whose fair share of the workers it takes (fair-share.ts). */
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
export const RECOGNITION_JOB_OPTIONS = {
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
 * Live sessions (builder and navigator browsers). `open` goes to the shared queue any worker
 * takes; every later command goes to the queue of the worker that owns the session, so it reaches
 * the process holding the page. Answers are the job's return value (a `SessionCommandResult`).
 */
export const SESSION_QUEUES = {
  open: 'pagewright-session-open',
  ofWorker: (workerId: string) => `pagewright-session-${workerId}`,
} as const;

/** Redis key a worker refreshes while it lives; the API checks it before sending a command. */
/** A builder draft (and its pictures) outlives its browser: unsaved work survives a lunch break. */
export const BUILDER_DRAFT_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The draft picture (JPEG) of a builder action: written by the API for a step run alone, and by
 * the validating worker straight from its flow (a validation's pictures never cross the queue).
 */
export function builderImageKey(
  keyPrefix: string,
  userId: string,
  actionId: string,
  kind: 'page' | 'element',
): string {
  return `${keyPrefix}builder-image:${userId}:${actionId}:${kind}`;
}

export function workerHeartbeatKey(keyPrefix: string, workerId: string): string {
  return `${keyPrefix}worker:${workerId}:alive`;
}
/** Each live worker's view of its browsers (issue 27), renewed with its heartbeat. */
export function workerBrowsersKey(keyPrefix: string, workerId: string): string {
  return `${keyPrefix}worker:${workerId}:browsers`;
}
export const WORKER_HEARTBEAT_EVERY_MS = 5_000;
export const WORKER_HEARTBEAT_TTL_MS = 20_000;

const sessionRef = { sessionId: z.string(), userId: z.string().uuid() };

export const sessionCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('open'), userId: z.string().uuid() }),
  z.object({ command: z.literal('close'), ...sessionRef }),
  /** Stops the session's running validation (its request went away): the flow ends STOPPED. */
  z.object({ command: z.literal('stop'), ...sessionRef }),
  z.object({
    command: z.literal('execute'),
    ...sessionRef,
    step: flowActionSchema,
    /** Values of earlier steps (IF_CONDITION compares with them), by sequence. */
    previousValues: z.record(z.string(), stepValueSchema),
    /** The sealed secret of a TYPE_PASSWORD step, opened by the worker. */
    sealedSecret: sealedSecretJsonSchema.nullable(),
    secretContext: z.string().nullable(),
    /** What an ASK_* step types while recording. */
    answer: z.string().nullable(),
    /** Navigators: also store the step in this run for the screen share. */
    recordToRunId: z.string().uuid().nullable(),
  }),
  /** The operator's answer to the JavaScript dialog the session's page is showing. */
  z.object({ command: z.literal('answerDialog'), ...sessionRef, answer: dialogAnswerSchema }),
  z.object({ command: z.literal('evaluatePoint'), ...sessionRef, point: pointSchema }),
  /** The wheel at `point` while picking: the live page moves, no step is recorded. */
  z.object({ command: z.literal('lookAround'), ...sessionRef, deltaY: z.number().int(), point: pointSchema }),
  z.object({ command: z.literal('pageAreas'), ...sessionRef, reload: z.boolean() }),
  z.object({
    command: z.literal('image'),
    ...sessionRef,
    /**
     * A screen-share viewer's read: it is not the owner's activity, so a page its owner left
     * still closes when idle however long someone watches it.
     */
    isPassive: z.boolean().optional(),
  }),
  z.object({
    command: z.literal('maskPreview'),
    ...sessionRef,
    selectorValue: z.string(),
    numberMask: numberMaskSchema.optional(),
    dateMask: dateMaskSchema.optional(),
  }),
  /**
   * Brings the live page to a step's state (issue 22): the steps before `untilSequence` (all when
   * null) run from a fresh context, without pictures; an ask ends the replay before it.
   */
  z.object({
    command: z.literal('replay'),
    ...sessionRef,
    untilSequence: z.number().int().nullable(),
    steps: z.array(
      z.object({
        step: flowActionSchema,
        sealedSecret: sealedSecretJsonSchema.nullable(),
        secretContext: z.string().nullable(),
      }),
    ),
  }),
  z.object({
    command: z.literal('validate'),
    ...sessionRef,
    runId: z.string().uuid(),
    extractorId: z.string().uuid(),
    steps: z.array(
      z.object({
        step: flowActionSchema,
        /** The saved action (asks link to it, saved answers are found by it); null for a new one. */
        actionId: z.string().uuid().nullable(),
        /** The action's id in the draft: its pictures go to builderImageKey under it. */
        draftActionId: z.string().min(1).max(100),
        sealedSecret: sealedSecretJsonSchema.nullable(),
        secretContext: z.string().nullable(),
      }),
    ),
  }),
]);
export type SessionCommand = z.infer<typeof sessionCommandSchema>;

/** What a replay did: the page is in the state after `reachedSequence` (null: no step ran). */
export const replayResultSchema = z.object({
  ok: z.literal(true),
  status: z.enum(['SUCCESS', 'ERROR', 'STOPPED']),
  reachedSequence: z.number().int().nullable(),
  /** Why it stopped early: a step failed, or an ask (its answer is the operator's, not the replay's). */
  stoppedAt: z.number().int().nullable(),
  message: z.string().nullable(),
});
export type ReplayResult = z.infer<typeof replayResultSchema>;
export type SessionCommandName = SessionCommand['command'];

/** Why a command did not do its work (no thrown job: the API reads the answer). */
export const sessionFailureSchema = z.object({
  ok: z.literal(false),
  /** SESSION_LOST: the session is not (or no longer) on that worker. */
  reason: z.enum(['SESSION_LOST', 'AUTOMATION', 'NO_ELEMENT', 'INVALID']),
  message: z.string(),
  code: z.number().int().nullable(),
  name: z.string().nullable(),
});
export type SessionFailure = z.infer<typeof sessionFailureSchema>;

export const executeResultSchema = z.object({
  ok: z.literal(true),
  value: stepValueSchema,
  pageUrl: z.string(),
  timestamp: z.string(),
  pageScreenshot: z.string().nullable(),
  elementScreenshot: z.string().nullable(),
  /** The dialogs the step raised, as the operator answered them (each becomes an ANSWER_DIALOG). */
  dialogs: z.array(pageDialogAnswerSchema).default([]),
  /** The live session's F-engine after the step (docs/f-engine.md); null: never signed in. */
  managementDTO: managementDtoSchema.nullable().default(null),
  fserviceDTO: fserviceDtoSchema.nullable().default(null),
});
export type ExecuteResult = z.infer<typeof executeResultSchema>;

export const validateResultSchema = z.object({
  ok: z.literal(true),
  status: z.enum(['SUCCESS', 'ERROR', 'STOPPED']),
  errorSequence: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
  errorCode: z.number().int().nullable(),
  steps: z.array(
    z.object({
      sequence: z.number().int(),
      status: z.enum(['SUCCESS', 'SKIPPED', 'ERROR']),
      pageUrl: z.string(),
      timestamp: z.string(),
      /** The worker stored the step's pictures under builderImageKey itself (not in this answer). */
      hasPageScreenshot: z.boolean(),
      hasElementScreenshot: z.boolean(),
    }),
  ),
});
export type ValidateResult = z.infer<typeof validateResultSchema>;

/** Validation progress, reported through BullMQ job progress (0–100 and the running step). */
export const validateProgressSchema = z.object({
  progress: z.number().min(0).max(100),
  actionType: z.string(),
  sequence: z.number().int(),
});
export type ValidateProgress = z.infer<typeof validateProgressSchema>;
