import * as z from './zod.js';
import {
  DESCRIPTION_MAX_LENGTH,
  NAME_MAX_LENGTH,
  QUERY_DEFAULT_PAGE_SIZE,
  QUERY_PAGE_SIZES,
  SORT_SEQUENCE_MAX,
  SORT_SEQUENCE_MIN,
  TEXT_FIELD_MAX_LENGTH,
} from '../constants.js';
import { DATASET_TYPES, ORDER_TYPES, QUERY_TYPES, VALUE_TYPES } from '../enums.js';
import { MESSAGES } from '../messages.js';
import { isOneLine } from '../validation.js';
import { OPERATOR_FAMILIES, OPERATOR_VALUE_TYPES, QUERY_OPERATORS } from '../query-operators.js';

/**
 * The /query calls (data spec §7). Like datasets, the wizard works on the caller's one query
 * draft: createquery or editquery opens it, the step calls fill it, save writes it, cancelquery
 * drops it; showqueryresult and export/excel read through it.
 */

const queryName = z
  .string({ error: MESSAGES['query.list.error.name'] })
  .trim()
  .min(1, MESSAGES['query.list.error.name'])
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`)
  .refine(isOneLine, MESSAGES['error.name.line.break']);
const queryDescription = z
  .string({ error: MESSAGES['query.list.error.description'] })
  .trim()
  .min(1, MESSAGES['query.list.error.description'])
  .max(DESCRIPTION_MAX_LENGTH, `Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`);

/** An IANA zone name the server knows ("Europe/Berlin"); dates of filters are days in it. */
const timeZone = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone');

/** POST /query/createquery: opens a new draft; `timeZone` (beyond the spec) is the browser's. */
export const createQueryRequestSchema = z.object({
  name: queryName,
  description: queryDescription,
  timeZone: timeZone.default('UTC'),
});
export type CreateQueryRequest = z.infer<typeof createQueryRequestSchema>;
export const createQueryResponseSchema = z.object({ id: z.string().uuid() });

export const renameQueryRequestSchema = z.object({
  id: z.string().uuid(),
  name: queryName,
  description: queryDescription,
});
export type RenameQueryRequest = z.infer<typeof renameQueryRequestSchema>;

export const queryIdQuerySchema = z.object({ queryId: z.string().uuid() });

export const queryDtoSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  type: z.enum(QUERY_TYPES),
  timeZone: z.string(),
  datasetId: z.string().uuid().nullable(),
  datasetName: z.string().nullable(),
  updatedAt: z.string(),
});
export type QueryDto = z.infer<typeof queryDtoSchema>;

/** GET /query/datasetquery: step 1's choice, with whether each dataset holds rows yet. */
export const queryDatasetSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  type: z.enum(DATASET_TYPES),
  hasData: z.boolean(),
});
export type QueryDataset = z.infer<typeof queryDatasetSchema>;

/** POST /query/dataset: step 1 → Next (changing the dataset clears the chosen fields and filters). */
export const chooseQueryDatasetRequestSchema = z.object({
  datasetId: z.string({ error: MESSAGES['query.dataset.required'] }).uuid(MESSAGES['query.dataset.required']),
});

export const queryDatasetFieldSchema = z.object({
  datasetFieldId: z.string().uuid(),
  name: z.string(),
  type: z.enum(VALUE_TYPES),
  sequence: z.number().int(),
});
export type QueryDatasetField = z.infer<typeof queryDatasetFieldSchema>;

/** The spec's query field: a chosen column and its place among the sort keys. */
export const queryFieldDtoSchema = z.object({
  queryFieldId: z.string().uuid(),
  datasetFieldId: z.string().uuid(),
  name: z.string(),
  type: z.enum(VALUE_TYPES),
  sequence: z.number().int(),
  orderType: z.enum(ORDER_TYPES).nullable(),
  orderSequence: z.number().int().min(SORT_SEQUENCE_MIN).max(SORT_SEQUENCE_MAX).nullable(),
});
export type QueryFieldDto = z.infer<typeof queryFieldDtoSchema>;

export const queryOperatorSchema = z.object({
  operatorId: z.number().int(),
  name: z.string(),
  operatorType: z.enum(OPERATOR_FAMILIES),
  valueType: z.enum(OPERATOR_VALUE_TYPES),
  appliesTo: z.array(z.enum(VALUE_TYPES)),
});
export type QueryOperatorDto = z.infer<typeof queryOperatorSchema>;

/** The spec's query filter. */
export const queryFilterDtoSchema = z.object({
  queryFilterId: z.string().uuid(),
  datasetFieldId: z.string().uuid(),
  operatorId: z.number().int(),
  operatorType: z.enum(OPERATOR_FAMILIES),
  operator: z.object({ operatorId: z.number().int(), valueType: z.enum(OPERATOR_VALUE_TYPES) }),
  inputValue: z.string().nullable(),
});
export type QueryFilterDto = z.infer<typeof queryFilterDtoSchema>;

/** POST /query/datasetfieldquery: step 2 — the dataset's fields and the draft's chosen ones. */
export const queryFieldStepResponseSchema = z.object({
  datasetFieldList: z.array(queryDatasetFieldSchema),
  queryFieldList: z.array(queryFieldDtoSchema),
});
export type QueryFieldStepResponse = z.infer<typeof queryFieldStepResponseSchema>;

/** POST /query/datasetfieldqueryForFilter: step 3 — the fields that can be filtered and the draft's filters. */
export const queryFilterStepResponseSchema = z.object({
  datasetFieldList: z.array(queryDatasetFieldSchema),
  queryFilterList: z.array(queryFilterDtoSchema),
});
export type QueryFilterStepResponse = z.infer<typeof queryFilterStepResponseSchema>;

/** POST /query/fieldselected: step 2 → Next, the chosen fields in column order. */
export const selectQueryFieldsRequestSchema = z.object({
  fields: z
    .array(
      z.object({
        datasetFieldId: z.string().uuid(),
        orderType: z.enum(ORDER_TYPES).nullish(),
        orderSequence: z.number().int().min(SORT_SEQUENCE_MIN).max(SORT_SEQUENCE_MAX).nullish(),
      }),
    )
    .min(1, MESSAGES['query.field.required'])
    .max(100)
    .superRefine((fields, ctx) => {
      const seen = new Set<number>();
      fields.forEach((field, index) => {
        if (field.orderSequence == null) return;
        if (seen.has(field.orderSequence))
          ctx.addIssue({
            code: 'custom',
            path: [index, 'orderSequence'],
            message: MESSAGES['query.order.sequence.unique'],
          });
        seen.add(field.orderSequence);
      });
    }),
});
export type SelectQueryFieldsRequest = z.infer<typeof selectQueryFieldsRequestSchema>;

const operatorId = z
  .number({ error: MESSAGES['query.all.fields.mandatory'] })
  .int()
  .min(1, MESSAGES['query.all.fields.mandatory'])
  .max(QUERY_OPERATORS.length, MESSAGES['query.all.fields.mandatory']);

/** One filter row as step 3 sends it; the value is checked against the operator by the API. */
export const queryFilterInputSchema = z.object({
  queryFilterId: z.string().uuid().nullish(),
  datasetFieldId: z
    .string({ error: MESSAGES['query.all.fields.mandatory'] })
    .uuid(MESSAGES['query.all.fields.mandatory']),
  operatorId,
  inputValue: z.string().max(TEXT_FIELD_MAX_LENGTH).nullish(),
});
export type QueryFilterInput = z.infer<typeof queryFilterInputSchema>;

/** POST /query/fieldoperatorinputvalue: adds (or, with its id, changes) one filter of the draft. */
export const queryFilterRequestSchema = queryFilterInputSchema;
/** POST /query/filterinputvalue: step 3 → Next, the draft's whole filter list. */
export const queryFilterListRequestSchema = z.object({ filters: z.array(queryFilterInputSchema).max(50) });
export type QueryFilterListRequest = z.infer<typeof queryFilterListRequestSchema>;
export const queryFilterListResponseSchema = z.object({ queryFilterList: z.array(queryFilterDtoSchema) });

/** DELETE /query/removefield: a chosen field or a filter of the draft. */
export const removeQueryFieldQuerySchema = z.object({
  queryFieldId: z.string().uuid().optional(),
  queryFilterId: z.string().uuid().optional(),
});
/** DELETE /query/removefield's answer: the draft's columns and filters left. */
export const removeQueryFieldResponseSchema = z.object({
  queryFieldList: z.array(queryFieldDtoSchema),
  queryFilterList: z.array(queryFilterDtoSchema),
});

const pageSize = z.coerce
  .number()
  .int()
  .refine((size) => (QUERY_PAGE_SIZES as readonly number[]).includes(size), {
    message: `Page size must be one of ${QUERY_PAGE_SIZES.join(', ')}`,
  });

/** Paging of results: `page` counts from 0. */
export const queryResultPageSchema = z.object({
  page: z.coerce.number().int().min(0).max(10_000_000).default(0),
  size: pageSize.default(QUERY_DEFAULT_PAGE_SIZE),
});
export const extractorActionDataQuerySchema = queryResultPageSchema.extend({
  datasetId: z.string().uuid().optional(),
});

/** A cell of a result row; FILE cells carry the stored file's id for GET /query/file/{id}. */
export const queryResultCellSchema = z.object({
  datasetFieldId: z.string().uuid(),
  name: z.string(),
  type: z.enum(VALUE_TYPES),
  /** Text as stored; a number as a decimal string (no float rounding); a date-time in ISO 8601 (UTC). */
  value: z.string().nullable(),
  fileId: z.string().uuid().nullable(),
});
export type QueryResultCell = z.infer<typeof queryResultCellSchema>;

/** GET /query/showqueryresult and /query/showextractoractiondata. */
export const queryResultSchema = z.object({
  columns: z.array(queryDatasetFieldSchema),
  rows: z.array(z.object({ fields: z.array(queryResultCellSchema) })),
  totalOfRows: z.number().int().min(0),
  page: z.number().int(),
  size: z.number().int(),
});
export type QueryResult = z.infer<typeof queryResultSchema>;

/** GET /query/editquery?queryId=: opens the draft on a saved query. */
export const queryEditResponseSchema = z.object({
  query: queryDtoSchema,
  queryDataset: queryDatasetSchema.nullable(),
  queryFieldList: z.array(queryFieldDtoSchema),
  queryFilterList: z.array(queryFilterDtoSchema),
});
export type QueryEditResponse = z.infer<typeof queryEditResponseSchema>;

export const saveQueryResponseSchema = z.object({ id: z.string().uuid(), message: z.string() });

/** GET /query/export/excel: the draft's result, or a saved query's with `queryId`. */
export const exportQueryQuerySchema = z.object({ queryId: z.string().uuid().optional() });

/** GET /query/file/{id}: a FILE cell's stored file. */
export const queryFileResponseSchema = z.object({ filename: z.string(), fileContent: z.string() });
