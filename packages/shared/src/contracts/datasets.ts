import * as z from './zod.js';
import { DATASET_KEY_FIELDS_MAX, DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH } from '../constants.js';
import { ACTION_TYPES, DATASET_TYPES, VALUE_TYPES } from '../enums.js';
import { MESSAGES, formatMessage } from '../messages.js';
import { isOneLine } from '../validation.js';

/**
 * The /dataset calls (data spec §7). The wizard's calls without an id work on the caller's one
 * dataset draft (kept in Redis like the builder's): createdataset or edit opens it, datasetfield and
 * labeltablecolumnlist fill it, save writes it, canceldataset drops it.
 */

const datasetName = z
  .string({ error: MESSAGES['dataset.list.error.name'] })
  .trim()
  .min(1, MESSAGES['dataset.list.error.name'])
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`)
  .refine(isOneLine, MESSAGES['error.name.line.break']);
const datasetDescription = z
  .string({ error: MESSAGES['dataset.list.error.description'] })
  .trim()
  .min(1, MESSAGES['dataset.list.error.description'])
  .max(DESCRIPTION_MAX_LENGTH, `Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`);

export const datasetIdQuerySchema = z.object({ datasetId: z.string().uuid() });

/** POST /dataset/createdataset: opens a new draft (nothing is stored until save). */
export const createDatasetRequestSchema = z.object({
  type: z.enum(DATASET_TYPES).default('CUSTOM'),
  name: datasetName,
  description: datasetDescription,
});
export type CreateDatasetRequest = z.infer<typeof createDatasetRequestSchema>;
export const createDatasetResponseSchema = z.object({ id: z.string().uuid() });

/** POST /dataset/rename. */
export const renameDatasetRequestSchema = z.object({
  id: z.string().uuid(),
  name: datasetName,
  description: datasetDescription,
});
export type RenameDatasetRequest = z.infer<typeof renameDatasetRequestSchema>;

export const datasetDtoSchema = z.object({
  id: z.string().uuid(),
  type: z.enum(DATASET_TYPES),
  name: z.string(),
  description: z.string(),
  /** The fields or mappings changed after rows were written: older rows may miss new fields until the next run. */
  dirty: z.boolean(),
  /** Rows it holds now. */
  rowCount: z.number().int().min(0),
  updatedAt: z.string(),
  /** Engine datasets: how their rows' import into the F-engine stands (null for CUSTOM). */
  engineSync: z
    .object({
      /** Rows new or changed since their last import, waiting for the engine. */
      pending: z.number().int().min(0),
      /** Rows the engine refused (tried again once they change). */
      rejected: z.number().int().min(0),
      /** Why the last import did not go through; null after a good one. */
      lastError: z.string().nullable(),
      lastSyncedAt: z.string().nullable(),
    })
    .nullable(),
});
export type DatasetDto = z.infer<typeof datasetDtoSchema>;

/** A field as step 1 of the wizard edits it; `datasetFieldId` is absent for a field not saved yet. */
export const datasetFieldInputSchema = z.object({
  datasetFieldId: z.string().uuid().nullish(),
  name: z
    .string({ error: MESSAGES['dataset.field.name.required'] })
    .trim()
    .min(1, MESSAGES['dataset.field.name.required'])
    .max(NAME_MAX_LENGTH, `Field name must be at most ${NAME_MAX_LENGTH} characters`)
    .refine(isOneLine, MESSAGES['error.name.line.break']),
  type: z.enum(VALUE_TYPES).default('TEXT'),
  dataSetKey: z.boolean().default(true),
});
export type DatasetFieldInput = z.infer<typeof datasetFieldInputSchema>;

/** POST /dataset/datasetfield: the draft's whole field list (step 1 → Next). */
export const datasetFieldListRequestSchema = z.object({
  fields: z
    .array(datasetFieldInputSchema)
    .min(1, MESSAGES['dataset.next.step.error'])
    .max(100, 'A dataset has at most 100 fields')
    .superRefine((fields, ctx) => {
      const seen = new Set<string>();
      fields.forEach((field, index) => {
        const name = field.name.toLowerCase();
        if (seen.has(name))
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: MESSAGES['dataset.field.name.unique'],
          });
        seen.add(name);
      });
      const keyCount = fields.filter((field) => field.dataSetKey).length;
      if (keyCount > DATASET_KEY_FIELDS_MAX)
        ctx.addIssue({
          code: 'custom',
          message: formatMessage('dataset.field.keys.too.many', {
            max: DATASET_KEY_FIELDS_MAX,
            count: keyCount,
          }),
        });
    }),
});
export type DatasetFieldListRequest = z.infer<typeof datasetFieldListRequestSchema>;

/** The spec's dataset field: `id` and `datasetFieldId` are the same id (null until saved). */
export const datasetFieldDtoSchema = z.object({
  id: z.string().uuid().nullable(),
  datasetFieldId: z.string().uuid().nullable(),
  name: z.string(),
  type: z.enum(VALUE_TYPES),
  dataSetKey: z.boolean(),
  sequence: z.number().int(),
});
export type DatasetFieldDto = z.infer<typeof datasetFieldDtoSchema>;
export const datasetFieldListResponseSchema = z.object({
  datasetFieldDtoList: z.array(datasetFieldDtoSchema),
});
export type DatasetFieldListResponse = z.infer<typeof datasetFieldListResponseSchema>;

/** Which extractor value a row stands for: an action's value, or one column of its GET_TABLE. */
export const labelColumnKeySchema = z.object({
  actionId: z.string().uuid(),
  tableColumnId: z.string().uuid().nullable().default(null),
});
export type LabelColumnKey = z.infer<typeof labelColumnKeySchema>;

/** A label or table-column row offered in step 2 (the caller's own extractors only). */
export const labelColumnRowSchema = labelColumnKeySchema.extend({
  extractorLabelTableColumnDto: z.object({
    extractorName: z.string(),
    /** The action's own label; null when it has none (the SPA names it by type and step, as the builder does). */
    actionLabel: z.string().nullable(),
    tableName: z.string().nullable(),
    tableColumnName: z.string().nullable(),
  }),
  actionType: z.enum(ACTION_TYPES),
  actionSequence: z.number().int(),
  extractorId: z.string().uuid(),
  /** What the value is: the column's type, or the action's (GET_NUMBER → NUMBER, GET_FILE → FILE…). */
  valueType: z.enum(VALUE_TYPES),
});
export type LabelColumnRow = z.infer<typeof labelColumnRowSchema>;

/** One check box of step 3: the row fills the field named `datasetFieldName` when checked. */
export const mappingCheckBoxSchema = z.object({ datasetFieldName: z.string(), checked: z.boolean() });

export const labelColumnMappingRowSchema = labelColumnRowSchema.extend({
  checkBoxes: z.array(mappingCheckBoxSchema),
});
export type LabelColumnMappingRow = z.infer<typeof labelColumnMappingRowSchema>;

/** GET /dataset/datasetlabelcolumn: every row offered, and those the draft has selected. */
export const datasetLabelColumnResponseSchema = z.object({
  labelTablesColumnsDto: z.array(labelColumnRowSchema),
  labelTablesColumnsSelect: z.array(labelColumnKeySchema),
});
export type DatasetLabelColumnResponse = z.infer<typeof datasetLabelColumnResponseSchema>;

/** POST /dataset/labeltablecolumnlist: the rows chosen in step 2. */
export const labelColumnSelectionRequestSchema = z.object({
  rows: z.array(labelColumnKeySchema).min(1, MESSAGES['dataset.next.step.error']).max(500),
});
export type LabelColumnSelectionRequest = z.infer<typeof labelColumnSelectionRequestSchema>;
export const labelColumnSelectionResponseSchema = z.object({
  labelAndTableColumnDtoList: z.array(labelColumnMappingRowSchema),
});
export type LabelColumnSelectionResponse = z.infer<typeof labelColumnSelectionResponseSchema>;

/** POST /dataset/save?datasetId=: the check boxes of step 3. */
export const saveDatasetRequestSchema = z.object({
  rows: z.array(labelColumnKeySchema.extend({ checkBoxes: z.array(mappingCheckBoxSchema) })).max(500),
});
export type SaveDatasetRequest = z.infer<typeof saveDatasetRequestSchema>;
export const saveDatasetResponseSchema = z.object({ id: z.string().uuid(), message: z.string() });

/** One mapping of a saved dataset: the field and the value that fills it. */
export const datasetMapDtoSchema = z.object({
  datasetFieldId: z.string().uuid(),
  datasetFieldName: z.string(),
  actionId: z.string().uuid(),
  tableColumnId: z.string().uuid().nullable(),
});

/** An action of the caller's extractors that can fill a field (the edit result's actionList). */
export const datasetActionSchema = z.object({
  id: z.string().uuid(),
  extractorId: z.string().uuid(),
  extractorName: z.string(),
  sequence: z.number().int(),
  type: z.enum(ACTION_TYPES),
  label: z.string().nullable(),
});

/** GET /dataset/edit?datasetId=: opens the draft on a saved dataset. */
export const datasetEditResponseSchema = z.object({
  datasetDto: datasetDtoSchema,
  datasetFieldDtoList: z.array(datasetFieldDtoSchema),
  datasetMap: z.array(datasetMapDtoSchema),
  labelTablesColumnsDto: z.array(labelColumnRowSchema),
  labelTablesColumnsSelect: z.array(labelColumnKeySchema),
  actionList: z.array(datasetActionSchema),
});
export type DatasetEditResponse = z.infer<typeof datasetEditResponseSchema>;

/** DELETE /dataset/removedatasetfield/: removes a field from the draft (saved fields by id, new ones by name). */
export const removeDatasetFieldQuerySchema = z.object({
  datasetId: z.string().uuid(),
  datasetFieldId: z.string().uuid().optional(),
  datasetFieldName: z.string().max(NAME_MAX_LENGTH).optional(),
});
