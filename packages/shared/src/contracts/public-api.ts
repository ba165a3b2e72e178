import * as z from './zod.js';
import { ACTION_TYPES, EXTRACTOR_TYPES, RUN_STATUSES, RUN_TRIGGERS, VALUE_TYPES } from '../enums.js';
import { stepValueSchema } from './automation.js';

/**
 * The public API under /api/v1 (issue 26), called with an API key: shapes meant for other
 * programs, stable across versions of the screens' own calls. Every item is the key owner's.
 */

export const PUBLIC_API_TAG = 'Public API v1';
export const PUBLIC_API_PAGE_MAX = 1000;
export const PUBLIC_API_PAGE_DEFAULT = 100;
export const PUBLIC_API_WAIT_MAX_SECONDS = 30;

const runSummarySchema = z.object({
  id: z.string().uuid(),
  status: z.enum(RUN_STATUSES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});

/** GET /api/v1/extractors */
export const v1ExtractorSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    type: z.enum(EXTRACTOR_TYPES),
    /** The status of its latest run; null before the first. */
    status: z.enum(RUN_STATUSES).nullable(),
    lastRun: runSummarySchema.nullable(),
  })
  .meta({
    example: {
      id: '3f0c3f4e-9a51-4d1b-8b4c-1f1d3b0f6a21',
      name: 'Prices',
      type: 'EXTRACTOR',
      status: 'SUCCESS',
      lastRun: {
        id: '8d2b8a57-3f3e-4b8c-a0a1-2c2b6c9e7f10',
        status: 'SUCCESS',
        startedAt: '2026-11-27T10:00:00.000Z',
        finishedAt: '2026-11-27T10:00:12.345Z',
      },
    },
  });
export type V1Extractor = z.infer<typeof v1ExtractorSchema>;

const v1FieldSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  type: z.enum(VALUE_TYPES),
  isKey: z.boolean(),
});

/** GET /api/v1/datasets */
export const v1DatasetSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    description: z.string(),
    type: z.string(),
    rowCount: z.number().int(),
    filledAt: z.string().nullable(),
    fields: z.array(v1FieldSchema),
  })
  .meta({
    example: {
      id: '5b7d2c1a-0e8f-4a3b-9c6d-7e8f9a0b1c2d',
      name: 'Prices',
      description: 'Daily prices',
      type: 'CUSTOM',
      rowCount: 2,
      filledAt: '2026-11-27T10:00:12.345Z',
      fields: [{ id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', name: 'sku', type: 'TEXT', isKey: true }],
    },
  });
export type V1Dataset = z.infer<typeof v1DatasetSchema>;

/** ?cursor=&limit=&format= of the row pages (a dataset's rows, a query's results). */
export const v1RowsQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(PUBLIC_API_PAGE_MAX).default(PUBLIC_API_PAGE_DEFAULT),
  format: z.enum(['json', 'csv']).default('json'),
});
export type V1RowsQuery = z.infer<typeof v1RowsQuerySchema>;

/**
 * A page of rows: each row maps a column's name to its value (texts; NUMBER as a decimal string,
 * DATETIME as ISO 8601 UTC, FILE as the file's name), `nextCursor` null on the last page.
 */
export const v1RowsPageSchema = z
  .object({
    columns: z.array(z.object({ name: z.string(), type: z.enum(VALUE_TYPES) })),
    rows: z.array(z.record(z.string(), z.string().nullable())),
    nextCursor: z.string().nullable(),
  })
  .meta({
    example: {
      columns: [
        { name: 'sku', type: 'TEXT' },
        { name: 'price', type: 'NUMBER' },
      ],
      rows: [
        { sku: 'A-1', price: '12.50' },
        { sku: 'B-2', price: null },
      ],
      nextCursor: 'eyJhIjoiMTIifQ',
    },
  });
export type V1RowsPage = z.infer<typeof v1RowsPageSchema>;

/** GET /api/v1/runs/:id?wait= */
export const v1RunQuerySchema = z.object({
  wait: z.coerce.number().int().min(0).max(PUBLIC_API_WAIT_MAX_SECONDS).default(0),
});

const v1FileLinkSchema = z.object({ name: z.string(), url: z.string() });

/** What a step gave, as a program reads it: a table's rows, a value, or a file's link. */
export const v1RunResultSchema = z.union([
  z.object({
    sequence: z.number().int(),
    label: z.string().nullable(),
    kind: z.literal('table'),
    columns: z.array(z.string()),
    rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
    /** The files of FILE cells (row and column from 0). */
    files: z.array(v1FileLinkSchema.extend({ row: z.number().int(), column: z.number().int() })),
  }),
  z.object({
    sequence: z.number().int(),
    label: z.string().nullable(),
    kind: z.literal('value'),
    value: z.union([z.string(), z.number()]),
  }),
  z.object({
    sequence: z.number().int(),
    label: z.string().nullable(),
    kind: z.literal('file'),
    file: v1FileLinkSchema,
  }),
]);
export type V1RunResult = z.infer<typeof v1RunResultSchema>;

export const v1RunSchema = z
  .object({
    id: z.string().uuid(),
    extractorId: z.string().uuid(),
    status: z.enum(RUN_STATUSES),
    trigger: z.enum(RUN_TRIGGERS),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    error: z
      .object({
        code: z.number().int().nullable(),
        message: z.string(),
        sequence: z.number().int().nullable(),
      })
      .nullable(),
    steps: z.array(
      z.object({
        sequence: z.number().int(),
        type: z.enum(ACTION_TYPES).nullable(),
        label: z.string().nullable(),
        status: z.enum(['SUCCESS', 'ERROR']),
        value: stepValueSchema.nullable(),
        errorMessage: z.string().nullable(),
      }),
    ),
    results: z.array(v1RunResultSchema),
  })
  .meta({
    example: {
      id: '8d2b8a57-3f3e-4b8c-a0a1-2c2b6c9e7f10',
      extractorId: '3f0c3f4e-9a51-4d1b-8b4c-1f1d3b0f6a21',
      status: 'SUCCESS',
      trigger: 'MANUAL',
      startedAt: '2026-11-27T10:00:00.000Z',
      finishedAt: '2026-11-27T10:00:12.345Z',
      error: null,
      steps: [
        {
          sequence: 1,
          type: 'GET_TEXT',
          label: 'title',
          status: 'SUCCESS',
          value: { kind: 'text', value: 'Price list' },
          errorMessage: null,
        },
      ],
      results: [{ sequence: 1, label: 'title', kind: 'value', value: 'Price list' }],
    },
  });
export type V1Run = z.infer<typeof v1RunSchema>;

export const v1RunFileParamSchema = z.object({
  id: z.string().uuid(),
  sequence: z.coerce.number().int().min(0),
});
