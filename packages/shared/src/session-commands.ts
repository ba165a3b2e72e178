import { z } from 'zod';
import {
  dateMaskSchema,
  dialogAnswerSchema,
  pageDialogAnswerSchema,
  pageElementAreaSchema,
  flowActionSchema,
  numberMaskSchema,
  pointSchema,
  stepValueSchema,
} from './contracts/automation.js';
import {
  evaluatePointResponseSchema,
  maskPreviewResponseSchema,
  sealedSecretJsonSchema,
} from './contracts/builder.js';
import { fserviceDtoSchema, managementDtoSchema } from './contracts/fengine.js';
import { defineJob, type JobAnswer, type JobDefinition, type JobResult } from './define-job.js';

/**
 * Live sessions (builder and navigator browsers). `open` goes to the shared queue any worker
 * takes; every later command goes to the queue of the worker that owns the session, so it reaches
 * the process holding the page. Answers are the job's return value (SESSION_COMMANDS' results).
 */
export const SESSION_QUEUES = {
  open: 'pagewright-session-open',
  ofWorker: (workerId: string) => `pagewright-session-${workerId}`,
} as const;

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

/** Redis key a worker refreshes while it lives; the API checks it before sending a command. */
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

const openCommandSchema = z.object({ command: z.literal('open'), userId: z.string().uuid() });
const closeCommandSchema = z.object({ command: z.literal('close'), ...sessionRef });
/** Stops the session's running validation (its request went away): the flow ends STOPPED. */
const stopCommandSchema = z.object({ command: z.literal('stop'), ...sessionRef });
const executeCommandSchema = z.object({
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
});
/** The operator's answer to the JavaScript dialog the session's page is showing. */
const answerDialogCommandSchema = z.object({
  command: z.literal('answerDialog'),
  ...sessionRef,
  answer: dialogAnswerSchema,
});
const evaluatePointCommandSchema = z.object({
  command: z.literal('evaluatePoint'),
  ...sessionRef,
  point: pointSchema,
});
/** The wheel at `point` while picking: the live page moves, no step is recorded. */
const lookAroundCommandSchema = z.object({
  command: z.literal('lookAround'),
  ...sessionRef,
  deltaY: z.number().int(),
  point: pointSchema,
});
const pageAreasCommandSchema = z.object({
  command: z.literal('pageAreas'),
  ...sessionRef,
  reload: z.boolean(),
});
const imageCommandSchema = z.object({
  command: z.literal('image'),
  ...sessionRef,
  /**
   * A screen-share viewer's read: it is not the owner's activity, so a page its owner left
   * still closes when idle however long someone watches it.
   */
  isPassive: z.boolean().optional(),
});
const maskPreviewCommandSchema = z.object({
  command: z.literal('maskPreview'),
  ...sessionRef,
  selectorValue: z.string(),
  numberMask: numberMaskSchema.optional(),
  dateMask: dateMaskSchema.optional(),
});
/**
 * Brings the live page to a step's state (issue 22): the steps before `untilSequence` (all when
 * null) run from a fresh context, without pictures; an ask ends the replay before it.
 */
const replayCommandSchema = z.object({
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
});
const validateCommandSchema = z.object({
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
});

export const sessionCommandSchema = z.discriminatedUnion('command', [
  openCommandSchema,
  closeCommandSchema,
  stopCommandSchema,
  executeCommandSchema,
  answerDialogCommandSchema,
  evaluatePointCommandSchema,
  lookAroundCommandSchema,
  pageAreasCommandSchema,
  imageCommandSchema,
  maskPreviewCommandSchema,
  replayCommandSchema,
  validateCommandSchema,
]);
export type SessionCommand = z.infer<typeof sessionCommandSchema>;
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

const doneSchema = z.object({ ok: z.literal(true) });

/** A command's answer: what it did, or a SessionFailure (it does not throw: the API reads why). */
function answerOf<Done extends typeof doneSchema>(done: Done) {
  return z.discriminatedUnion('ok', [done, sessionFailureSchema]);
}

/**
 * Every command is one attempt; its job is kept a little while: waitUntilFinished reads a job that
 * finished before it looked. The API names each job (a fresh id).
 */
const SESSION_COMMAND_JOB_OPTIONS = {
  removeOnComplete: { age: 60, count: 200 },
  removeOnFail: { age: 60, count: 200 },
  attempts: 1,
} as const;

/** Where the commands of an open session go: the queue of the worker holding its page. */
const ownerWorker = SESSION_QUEUES.ofWorker;

/**
 * The commands a live session takes (job name = command), each with what it answers: the worker
 * answers with these types, the API parses what it waits for with these schemas.
 */
export const SESSION_COMMANDS = {
  open: defineJob({
    queue: SESSION_QUEUES.open,
    name: 'open',
    payload: openCommandSchema,
    result: answerOf(doneSchema.extend({ workerId: z.string(), sessionId: z.string() })),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  close: defineJob({
    queue: ownerWorker,
    name: 'close',
    payload: closeCommandSchema,
    result: answerOf(doneSchema),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  stop: defineJob({
    queue: ownerWorker,
    name: 'stop',
    payload: stopCommandSchema,
    /** `stopped`: a validation was running. */
    result: answerOf(doneSchema.extend({ stopped: z.boolean() })),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  execute: defineJob({
    queue: ownerWorker,
    name: 'execute',
    payload: executeCommandSchema,
    result: answerOf(executeResultSchema),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  answerDialog: defineJob({
    queue: ownerWorker,
    name: 'answerDialog',
    payload: answerDialogCommandSchema,
    /** `answered`: the page was showing a dialog. */
    result: answerOf(doneSchema.extend({ answered: z.boolean() })),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  evaluatePoint: defineJob({
    queue: ownerWorker,
    name: 'evaluatePoint',
    payload: evaluatePointCommandSchema,
    result: answerOf(evaluatePointResponseSchema.extend({ ok: z.literal(true) })),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  lookAround: defineJob({
    queue: ownerWorker,
    name: 'lookAround',
    payload: lookAroundCommandSchema,
    result: answerOf(doneSchema),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  pageAreas: defineJob({
    queue: ownerWorker,
    name: 'pageAreas',
    payload: pageAreasCommandSchema,
    result: answerOf(
      doneSchema.extend({
        pageUrl: z.string(),
        areas: z.array(pageElementAreaSchema),
        pageScreenshot: z.string().nullable(),
      }),
    ),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  image: defineJob({
    queue: ownerWorker,
    name: 'image',
    payload: imageCommandSchema,
    result: answerOf(
      doneSchema.extend({ image: z.string(), pageUrl: z.string(), width: z.number(), height: z.number() }),
    ),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  maskPreview: defineJob({
    queue: ownerWorker,
    name: 'maskPreview',
    payload: maskPreviewCommandSchema,
    result: answerOf(maskPreviewResponseSchema.extend({ ok: z.literal(true) })),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  replay: defineJob({
    queue: ownerWorker,
    name: 'replay',
    payload: replayCommandSchema,
    result: answerOf(replayResultSchema),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
  validate: defineJob({
    queue: ownerWorker,
    name: 'validate',
    payload: validateCommandSchema,
    result: answerOf(validateResultSchema),
    options: SESSION_COMMAND_JOB_OPTIONS,
  }),
} as const satisfies { [Name in SessionCommandName]: JobDefinition<string | typeof ownerWorker, Name> };

/** A command of this name, as the API sends it. */
export type SessionCommandOf<Name extends SessionCommandName> = Extract<SessionCommand, { command: Name }>;
/** What the API reads from a command's answer (parsed: its defaults filled in). */
export type SessionCommandResult<Name extends SessionCommandName> = JobResult<
  (typeof SESSION_COMMANDS)[Name]
>;
/** What the worker answers to a command of this name. */
export type SessionCommandAnswer<Name extends SessionCommandName> = JobAnswer<
  (typeof SESSION_COMMANDS)[Name]
>;
