import * as z from './zod.js';
import { ACTION_TYPES, RUN_STATUSES, RUN_TRIGGERS } from '../enums.js';
import { elementLocatedBySchema, stepValueSchema } from './automation.js';

/**
 * Runs of recorded flows (automation spec §4 list statuses, §7 GET /extractor/execute/:id): what
 * Execute answers and how a run is inspected step by step.
 */

/** Texts of the run life cycle that the spec leaves to the product. */
export const RUN_MESSAGES = {
  alreadyExecuting: 'This extractor is already executing',
  workerStopped: 'The worker running this flow stopped before it finished.',
  /** The run's job is gone from Redis: Redis restarted without its data (or the job was removed). */
  queueLost: 'The queue lost this run (Redis restarted without its data) before it finished.',
  queueUnavailable: 'Runs cannot be started right now; try again in a moment.',
  noLocatorToAdopt:
    'This step of the run found its element by its recorded selector: there is no other locator to use.',
  locatorAdopted: 'From now on this step looks for its element at {{selector}}.',
} as const;

/** The code of a run whose worker stopped: 100006 No Such Session, as for a browser that went away. */
export const WORKER_STOPPED_ERROR_CODE = 100006;

export const runIdParamSchema = z.object({ runId: z.string().uuid() });

export const runStepParamSchema = z.object({
  runId: z.string().uuid(),
  sequence: z.coerce.number().int().min(0),
});

/** .../step/:sequence/file: without row and column the step's file, with both a table cell's. */
export const runStepFileQuerySchema = z
  .object({
    row: z.coerce.number().int().min(0).optional(),
    column: z.coerce.number().int().min(0).optional(),
  })
  .refine((query) => (query.row === undefined) === (query.column === undefined), {
    message: 'Give both row and column, or neither',
    path: ['column'],
  });

export const runStepScreenshotQuerySchema = z.object({
  kind: z.enum(['page', 'element']).default('page'),
});
export type RunStepScreenshotKind = z.infer<typeof runStepScreenshotQuerySchema>['kind'];

/** GET /extractor/execute/:id */
export const executeExtractorResponseSchema = z.object({
  runId: z.string().uuid(),
  status: z.literal('EXECUTING'),
  /** No worker is running: the run is queued and starts when one does (`run.waiting.for.worker`). */
  waitingForWorker: z.boolean(),
});
export type ExecuteExtractorResponse = z.infer<typeof executeExtractorResponseSchema>;

export const runStepSchema = z.object({
  sequence: z.number().int(),
  actionType: z.enum(ACTION_TYPES).nullable(),
  label: z.string().nullable(),
  pageUrl: z.string().nullable(),
  timestamp: z.string(),
  value: stepValueSchema.nullable(),
  errorMessage: z.string().nullable(),
  /** A fallback found the element; its selector can become the step's locator (issue 22). */
  locatedBy: elementLocatedBySchema.nullable(),
  hasPageScreenshot: z.boolean(),
  hasElementScreenshot: z.boolean(),
  /** The page's normalized HTML after the step, served by .../step/:sequence/html. */
  hasNormalizedHtml: z.boolean(),
  /** Name of the file the step kept (GET_FILE, GET_IMAGE), served by .../step/:sequence/file. */
  fileName: z.string().nullable(),
  /** GET_TABLE: the file each FILE cell downloaded, served by .../file?row=&column=. */
  tableFiles: z.array(z.object({ row: z.number().int(), column: z.number().int(), fileName: z.string() })),
});
export type RunStep = z.infer<typeof runStepSchema>;

/** GET /extractor/run/:runId */
export const runDetailSchema = z.object({
  id: z.string().uuid(),
  extractorId: z.string().uuid(),
  status: z.enum(RUN_STATUSES),
  trigger: z.enum(RUN_TRIGGERS),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  errorCode: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
  errorSequence: z.number().int().nullable(),
  /** EXECUTING while no worker is running: queued until one starts (`run.waiting.for.worker`). */
  waitingForWorker: z.boolean(),
  /** The values of the extractor's inputs this run was started with (defaults filled in). */
  inputs: z.record(z.string(), z.string()),
  /** The browser it ran in: "local" (its worker's own Chromium) or a browser host's name; null before it started. */
  browserName: z.string().nullable(),
  steps: z.array(runStepSchema),
});
export type RunDetail = z.infer<typeof runDetailSchema>;
