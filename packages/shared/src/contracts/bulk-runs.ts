import * as z from './zod.js';
import { MESSAGES } from '../messages.js';
import { isCleanFileName, isOneLine } from '../validation.js';
import { inputNameSchema } from './inputs.js';

/**
 * Bulk runs (issue 26, item 4, docs/api.md "Bulk runs"): one extractor run once per input row of a
 * CSV file, pasted lines, or a dataset's or a query's rows. The rows become items; the worker's
 * driver starts their runs a few at a time per user, and each run fills the extractor's datasets
 * like any other.
 */

/** Inputs one bulk run takes at most. */
export const BULK_RUN_MAX_INPUTS = 10_000;
/** The largest CSV a bulk run reads (its text, sent in the request body). */
export const BULK_RUN_CSV_MAX_BYTES = 4 * 1024 * 1024;
/** Bulk runs of one user going at once (RUNNING); the next one waits for one to end. */
export const BULK_RUNS_MAX_RUNNING_PER_USER = 5;
/** Items listed per page in the results table and by the public API. */
export const BULK_RUN_ITEMS_PAGE_SIZE = 100;
/** The name a bulk run from pasted lines shows. */
export const BULK_RUN_LINES_SOURCE_NAME = 'Pasted lines';

export const BULK_RUN_SOURCES = ['CSV', 'LINES', 'DATASET', 'QUERY'] as const;
export type BulkRunSource = (typeof BULK_RUN_SOURCES)[number];
export const BULK_RUN_STATUSES = ['RUNNING', 'FINISHED', 'CANCELLED'] as const;
export type BulkRunStatus = (typeof BULK_RUN_STATUSES)[number];
export const BULK_RUN_ITEM_STATUSES = [
  'PENDING',
  'STARTING',
  'RUNNING',
  'SUCCESS',
  'ERROR',
  'STOPPED',
  'CANCELLED',
] as const;
export type BulkRunItemStatus = (typeof BULK_RUN_ITEM_STATUSES)[number];
/** The items "Retry" runs again. */
export const RETRYABLE_BULK_RUN_ITEM_STATUSES = [
  'ERROR',
  'STOPPED',
] as const satisfies readonly BulkRunItemStatus[];

/** Which column of a dataset or query fills which input; left out, an input takes the column of its name. */
const columnMapping = z.record(inputNameSchema, z.string().min(1).max(255)).default({});

/** POST /api/extractor/:id/bulk-runs and POST /api/v1/extractors/:id/bulk-runs */
export const createBulkRunSchema = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('CSV'),
    // Shown in the bulk run's list and exports: one line of plain text (issue 38).
    fileName: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .refine(isOneLine, MESSAGES['error.name.line.break'])
      .refine(isCleanFileName, MESSAGES['error.file.name.control'])
      .default('inputs.csv'),
    /** The file's text: a header row naming inputs, then one row per run. */
    csv: z
      .string()
      .max(
        BULK_RUN_CSV_MAX_BYTES,
        MESSAGES['bulk.run.csv.too.large'].replace('{{max}}', String(BULK_RUN_CSV_MAX_BYTES / 1024 / 1024)),
      ),
  }),
  z.object({
    source: z.literal('LINES'),
    /** One value per line (blank lines skipped) for this input; the others keep their defaults. */
    inputName: inputNameSchema.optional(),
    lines: z.string().max(BULK_RUN_CSV_MAX_BYTES),
  }),
  z.object({ source: z.literal('DATASET'), datasetId: z.string().uuid(), columns: columnMapping }),
  z.object({ source: z.literal('QUERY'), queryId: z.string().uuid(), columns: columnMapping }),
]);
export type CreateBulkRun = z.input<typeof createBulkRunSchema>;
export type CreateBulkRunParsed = z.infer<typeof createBulkRunSchema>;

export const bulkRunCountsSchema = z.object({
  pending: z.number().int(),
  running: z.number().int(),
  success: z.number().int(),
  error: z.number().int(),
  stopped: z.number().int(),
  cancelled: z.number().int(),
});
export type BulkRunCounts = z.infer<typeof bulkRunCountsSchema>;

export const bulkRunSchema = z
  .object({
    id: z.string().uuid(),
    extractorId: z.string().uuid(),
    extractorName: z.string(),
    source: z.enum(BULK_RUN_SOURCES),
    sourceName: z.string(),
    status: z.enum(BULK_RUN_STATUSES),
    total: z.number().int(),
    counts: bulkRunCountsSchema,
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({
    example: {
      id: '0b7d1f2e-6a43-4c1e-9f0a-5d2c8e3b4a11',
      extractorId: '3f0c3f4e-9a51-4d1b-8b4c-1f1d3b0f6a21',
      extractorName: 'Prices',
      source: 'CSV',
      sourceName: 'products.csv',
      status: 'RUNNING',
      total: 500,
      counts: { pending: 380, running: 3, success: 115, error: 2, stopped: 0, cancelled: 0 },
      createdAt: '2026-11-27T08:00:00.000Z',
      finishedAt: null,
    },
  });
export type BulkRunView = z.infer<typeof bulkRunSchema>;
export const bulkRunListSchema = z.object({ bulkRuns: z.array(bulkRunSchema) });
export type BulkRunList = z.infer<typeof bulkRunListSchema>;

export const bulkRunItemSchema = z.object({
  position: z.number().int(),
  inputs: z.record(z.string(), z.string()),
  status: z.enum(BULK_RUN_ITEM_STATUSES),
  /** The item's latest run (a retry starts a new one); null until it started. */
  runId: z.string().uuid().nullable(),
  attempts: z.number().int(),
  errorMessage: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type BulkRunItemView = z.infer<typeof bulkRunItemSchema>;
export const bulkRunItemPageSchema = z.object({
  items: z.array(bulkRunItemSchema),
  /** The position to pass as `after` for the next page; null on the last page. */
  nextAfter: z.number().int().nullable(),
});
export type BulkRunItemPage = z.infer<typeof bulkRunItemPageSchema>;

/** ?status=&after=&limit= of the results table ("failed": ERROR and STOPPED). */
export const bulkRunItemQuerySchema = z.object({
  status: z.enum(['all', 'failed', 'open', 'success']).default('all'),
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(BULK_RUN_ITEMS_PAGE_SIZE),
});
export type BulkRunItemQuery = z.infer<typeof bulkRunItemQuerySchema>;

export const bulkRunParamsSchema = z.object({ bulkRunId: z.string().uuid() });
export const bulkRunItemParamsSchema = z.object({
  bulkRunId: z.string().uuid(),
  position: z.coerce.number().int().min(1),
});
/** ?extractorId= of the list (none: all the caller's bulk runs, newest first). */
export const bulkRunListQuerySchema = z.object({ extractorId: z.string().uuid().optional() });

/** The share of items that have ended, 0–1: what the progress bar draws. */
export function bulkRunProgress(view: Pick<BulkRunView, 'total' | 'counts'>): number {
  if (view.total === 0) return 1;
  const open = view.counts.pending + view.counts.running;
  return (view.total - open) / view.total;
}
