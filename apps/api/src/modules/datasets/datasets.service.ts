import { randomUUID } from 'node:crypto';
import {
  ENGINE_DATASET_ENTITIES,
  MESSAGES,
  formatMessage,
  isEngineDatasetType,
  type CreateDatasetRequest,
  type DatasetDto,
  type DatasetEditResponse,
  type DatasetFieldDto,
  type DatasetFieldListRequest,
  type LabelColumnKey,
  type LabelColumnMappingRow,
  type LabelColumnRow,
  type RenameDatasetRequest,
  type SaveDatasetRequest,
  type DatasetType,
  type ValueType,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { DatasetDraft, DatasetDraftStore } from './dataset-draft.store.js';
import { tableChangeFailure, type DatasetRepository, type DatasetToSave } from './datasets.repository.js';

const nameTaken = () => new AppError('NAME_EXISTS', MESSAGES['dataset.list.error.unique'], 'name');
const nextStepError = (field?: string) => AppError.validation(MESSAGES['dataset.next.step.error'], field);

/** A failed change of a dataset's table (rolled back, nothing changed) as the sentence it answers. */
function tableChangeError(error: unknown): unknown {
  const failure = tableChangeFailure(error);
  if (failure === 'IN_USE') return new AppError('CONFLICT', MESSAGES['dataset.save.in.use']);
  if (failure === 'TOO_LONG') return new AppError('SERVICE_UNAVAILABLE', MESSAGES['dataset.save.too.long']);
  return error;
}

const ACTION_VALUE_TYPES: Partial<Record<string, ValueType>> = {
  GET_TEXT: 'TEXT',
  GET_NUMBER: 'NUMBER',
  GET_DATE: 'DATETIME',
  GET_FILE: 'FILE',
  GET_IMAGE: 'FILE',
};
const SCRIPT_VALUE_TYPES: Partial<Record<string, ValueType>> = {
  TEXT: 'TEXT',
  NUMBER: 'NUMBER',
  DATETIME: 'DATETIME',
};

const keyOf = (row: { actionId: string; tableColumnId: string | null }) =>
  `${row.actionId}:${row.tableColumnId ?? ''}`;

function scriptReturnType(options: unknown): string | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const script = (options as { script?: { returnType?: unknown } }).script;
  return typeof script?.returnType === 'string' ? script.returnType : undefined;
}

const engineFieldFixed = (name: string, field: string) =>
  AppError.validation(formatMessage('dataset.engine.field.fixed', { name }), field);

/** A new engine dataset's fields: its entity's, as the contract defines them. */
function engineFieldsOf(type: DatasetType): DatasetDraft['fields'] {
  if (!isEngineDatasetType(type)) return [];
  return ENGINE_DATASET_ENTITIES[type].fields.map((field) => ({
    datasetFieldId: null,
    name: field.name,
    type: field.type,
    dataSetKey: field.isKey,
  }));
}

/**
 * Step 1 of an engine dataset may only send its fields back as they are: the first field that is
 * new, renamed, retyped, re-keyed or missing is named in the 400.
 */
function assertEngineFieldsKept(draft: DatasetDraft, request: DatasetFieldListRequest): void {
  const fixed = new Map(draft.fields.map((field) => [field.name, field]));
  request.fields.forEach((field, index) => {
    const kept = fixed.get(field.name);
    if (!kept) throw engineFieldFixed(field.name, `fields.${index}.name`);
    const isSameId = !field.datasetFieldId || field.datasetFieldId === kept.datasetFieldId;
    if (!isSameId || kept.type !== field.type || kept.dataSetKey !== field.dataSetKey)
      throw engineFieldFixed(field.name, `fields.${index}`);
  });
  const sent = new Set(request.fields.map((field) => field.name));
  const missing = draft.fields.find((field) => !sent.has(field.name));
  if (missing) throw engineFieldFixed(missing.name, 'fields');
}

function fieldDtos(fields: DatasetDraft['fields']): DatasetFieldDto[] {
  return fields.map((field, sequence) => ({
    id: field.datasetFieldId,
    datasetFieldId: field.datasetFieldId,
    name: field.name,
    type: field.type,
    dataSetKey: field.dataSetKey,
    sequence,
  }));
}

/** The dataset wizard, the dashboard list, rename and delete (data spec §2, §4, §7). */
export function createDatasetService(deps: { datasets: DatasetRepository; drafts: DatasetDraftStore }) {
  const { datasets, drafts } = deps;

  async function ownedOrNotFound(userId: string, id: string) {
    const dataset = await datasets.findOwned(userId, id);
    if (!dataset) throw AppError.notFound(MESSAGES['dataset.not.found']);
    return dataset;
  }

  /** The rows step 2 offers: every value of the caller's extractors that can fill a field. */
  async function labelColumnRows(userId: string): Promise<LabelColumnRow[]> {
    const actions = await datasets.valueSources(userId);
    return actions.flatMap((action): LabelColumnRow[] => {
      const about = {
        actionId: action.id,
        actionType: action.type,
        actionSequence: action.sequence,
        extractorId: action.extractor.id,
      };
      const actionLabel = action.label?.trim() || null;
      if (action.type === 'GET_TABLE') {
        const table = action.getTable;
        if (!table) return [];
        return table.columns.map((column) => ({
          ...about,
          tableColumnId: column.id,
          valueType: column.type,
          extractorLabelTableColumnDto: {
            extractorName: action.extractor.name,
            actionLabel,
            tableName: table.name,
            tableColumnName: column.label,
          },
        }));
      }
      const valueType =
        action.type === 'SCRIPT'
          ? SCRIPT_VALUE_TYPES[scriptReturnType(action.options) ?? '']
          : ACTION_VALUE_TYPES[action.type];
      if (!valueType) return [];
      return [
        {
          ...about,
          tableColumnId: null,
          valueType,
          extractorLabelTableColumnDto: {
            extractorName: action.extractor.name,
            actionLabel,
            tableName: null,
            tableColumnName: null,
          },
        },
      ];
    });
  }

  function toDto(
    dataset:
      | NonNullable<Awaited<ReturnType<DatasetRepository['findOwned']>>>
      | Awaited<ReturnType<DatasetRepository['list']>>[number],
  ): DatasetDto {
    return {
      id: dataset.id,
      type: dataset.type,
      name: dataset.name,
      description: dataset.description,
      dirty: dataset.isDirty,
      rowCount: dataset.rowCount,
      updatedAt: dataset.updatedAt.toISOString(),
      engineSync: isEngineDatasetType(dataset.type)
        ? {
            pending: dataset.engineSyncPending,
            rejected: dataset.engineSyncRejected,
            lastError: dataset.engineSyncError,
            lastSyncedAt: dataset.engineSyncedAt?.toISOString() ?? null,
          }
        : null,
    };
  }

  /** Checks step 3's boxes against the draft and the caller's extractors; the maps to write. */
  function mapsOf(
    draft: DatasetDraft,
    fieldIds: readonly string[],
    offered: readonly LabelColumnRow[],
    request: SaveDatasetRequest,
  ): DatasetToSave['maps'] {
    const offeredByKey = new Map(offered.map((row) => [keyOf(row), row]));
    const fieldIndexByName = new Map(draft.fields.map((field, index) => [field.name.toLowerCase(), index]));
    const maps: DatasetToSave['maps'] = [];
    const fieldsByExtractor = new Map<string, Set<number>>();
    request.rows.forEach((row, rowIndex) => {
      const source = offeredByKey.get(keyOf(row));
      if (!source) throw AppError.validation(MESSAGES['dataset.map.unknown.row'], `rows.${rowIndex}`);
      for (const box of row.checkBoxes) {
        if (!box.checked) continue;
        const index = fieldIndexByName.get(box.datasetFieldName.toLowerCase());
        const field = index === undefined ? undefined : draft.fields[index];
        if (index === undefined || !field)
          throw AppError.validation(
            formatMessage('dataset.map.unknown.field', { name: box.datasetFieldName }),
            `rows.${rowIndex}.checkBoxes`,
          );
        if ((field.type === 'FILE') !== (source.valueType === 'FILE') && field.type !== 'TEXT')
          throw AppError.validation(MESSAGES['dataset.map.file.field'], `rows.${rowIndex}.checkBoxes`);
        if (field.type === 'TEXT' && source.valueType === 'FILE')
          throw AppError.validation(MESSAGES['dataset.map.file.field'], `rows.${rowIndex}.checkBoxes`);
        const used = fieldsByExtractor.get(source.extractorId) ?? new Set<number>();
        if (used.has(index))
          throw AppError.validation(
            MESSAGES['dataset.map.one.action.per.extractor'],
            `rows.${rowIndex}.checkBoxes`,
          );
        used.add(index);
        fieldsByExtractor.set(source.extractorId, used);
        maps.push({
          datasetFieldId: fieldIds[index] as string,
          actionId: source.tableColumnId ? null : source.actionId,
          tableColumnId: source.tableColumnId,
        });
      }
    });
    // Rows join by key: an extractor that left a key field empty would fold all its rows into one.
    const keyIndexes = draft.fields.flatMap((field, index) => (field.dataSetKey ? [index] : []));
    for (const used of fieldsByExtractor.values()) {
      const missing = keyIndexes.filter((index) => !used.has(index));
      if (missing.length > 0)
        throw AppError.validation(
          formatMessage('dataset.map.keys.required', {
            fields: missing.map((index) => draft.fields[index]?.name ?? '').join(', '),
          }),
          'rows',
        );
    }
    return maps;
  }

  return {
    async dashboard(userId: string): Promise<DatasetDto[]> {
      return (await datasets.list(userId)).map(toDto);
    },

    async create(userId: string, request: CreateDatasetRequest): Promise<{ id: string }> {
      if (await datasets.isNameTaken(userId, request.name)) throw nameTaken();
      const id = randomUUID();
      // An engine dataset starts with its entity's fields, so its wizard starts at step 2 (data
      // spec §2); step 1 shows them read-only.
      const fields = engineFieldsOf(request.type);
      const hasFields = fields.length > 0;
      await drafts.put(userId, { id, isNew: true, ...request, fields, hasFields, selected: [] });
      return { id };
    },

    async setFields(userId: string, request: DatasetFieldListRequest): Promise<DatasetFieldDto[]> {
      const next = await drafts.update(userId, async (draft) => {
        if (isEngineDatasetType(draft.type)) {
          assertEngineFieldsKept(draft, request);
          return { ...draft, hasFields: true };
        }
        const known = new Set(draft.fields.flatMap((field) => field.datasetFieldId ?? []));
        const fields = request.fields.map((field, index) => {
          if (field.datasetFieldId && !known.has(field.datasetFieldId))
            throw AppError.validation(MESSAGES['dataset.next.step.error'], `fields.${index}.datasetFieldId`);
          return {
            datasetFieldId: field.datasetFieldId ?? null,
            name: field.name,
            type: field.type,
            dataSetKey: field.dataSetKey,
          };
        });
        // A saved field left out of the list is removed: the same rule as removedatasetfield.
        const kept = new Set(fields.flatMap((field) => field.datasetFieldId ?? []));
        const removed = [...known].filter((id) => !kept.has(id));
        if ((await datasets.fieldsUsedByQueries(removed)).size > 0)
          throw new AppError('CONFLICT', MESSAGES['dataset.field.remove.query'], 'fields');
        return { ...draft, fields, hasFields: true };
      });
      return fieldDtos(next.fields);
    },

    async fieldList(userId: string): Promise<DatasetFieldDto[]> {
      return fieldDtos((await drafts.get(userId)).fields);
    },

    async labelColumns(userId: string) {
      const draft = await drafts.find(userId);
      return {
        labelTablesColumnsDto: await labelColumnRows(userId),
        labelTablesColumnsSelect: draft?.selected ?? [],
      };
    },

    /** Step 2 → 3: the chosen rows, each with a box per field (checked as the dataset maps it now). */
    async selectLabelColumns(
      userId: string,
      rows: readonly LabelColumnKey[],
    ): Promise<LabelColumnMappingRow[]> {
      const offered = new Map((await labelColumnRows(userId)).map((row) => [keyOf(row), row]));
      let chosen: LabelColumnRow[] = [];
      const draft = await drafts.update(userId, (current) => {
        if (!current.hasFields) throw nextStepError('fields');
        chosen = rows.map((row, index) => {
          const found = offered.get(keyOf(row));
          if (!found) throw AppError.validation(MESSAGES['dataset.map.unknown.row'], `rows.${index}`);
          return found;
        });
        return {
          ...current,
          selected: chosen.map((row) => ({ actionId: row.actionId, tableColumnId: row.tableColumnId })),
        };
      });
      const mapped = draft.isNew ? [] : await datasets.maps(draft.id);
      const isMapped = (row: LabelColumnRow, fieldId: string | null) =>
        fieldId !== null &&
        mapped.some(
          (map) =>
            map.datasetFieldId === fieldId &&
            (row.tableColumnId ? map.tableColumnId === row.tableColumnId : map.actionId === row.actionId),
        );
      return chosen.map((row) => ({
        ...row,
        checkBoxes: draft.fields.map((field) => ({
          datasetFieldName: field.name,
          checked: isMapped(row, field.datasetFieldId),
        })),
      }));
    },

    async save(userId: string, datasetId: string, request: SaveDatasetRequest): Promise<{ id: string }> {
      const draft = await drafts.get(userId, datasetId);
      if (!draft.hasFields || draft.fields.length === 0) throw nextStepError('fields');
      if (await datasets.isNameTaken(userId, draft.name, draft.isNew ? undefined : draft.id))
        throw nameTaken();
      const fieldIds = draft.fields.map((field) => field.datasetFieldId ?? randomUUID());
      const maps = mapsOf(draft, fieldIds, await labelColumnRows(userId), request);
      // Nothing mapped would save a dataset no run ever fills; refused before anything is written.
      if (maps.length === 0) throw AppError.validation(MESSAGES['dataset.map.none'], 'rows');
      if (!draft.isNew) {
        const saved = await ownedOrNotFound(userId, draft.id);
        const kept = new Set(fieldIds);
        const removed = saved.fields.filter((field) => !kept.has(field.id)).map((field) => field.id);
        if ((await datasets.fieldsUsedByQueries(removed)).size > 0)
          throw new AppError('CONFLICT', MESSAGES['dataset.field.remove.query'], 'fields');
      }
      const saving = datasets.save(userId, {
        id: draft.id,
        isNew: draft.isNew,
        type: draft.type,
        name: draft.name,
        description: draft.description,
        fields: draft.fields.map((field, sequence) => ({
          id: fieldIds[sequence] as string,
          name: field.name,
          type: field.type,
          isKey: field.dataSetKey,
          sequence,
        })),
        maps,
      });
      await saving.catch((error: unknown) => {
        throw isUniqueViolation(error) ? nameTaken() : tableChangeError(error);
      });
      await drafts.drop(userId);
      return { id: draft.id };
    },

    async cancel(userId: string): Promise<void> {
      await drafts.drop(userId);
    },

    /** Opens the caller's draft on a saved dataset and answers all the wizard shows. */
    async edit(userId: string, datasetId: string): Promise<DatasetEditResponse> {
      const dataset = await ownedOrNotFound(userId, datasetId);
      const maps = await datasets.maps(datasetId);
      const offered = await labelColumnRows(userId);
      const offeredByKey = new Map(offered.map((row) => [keyOf(row), row]));
      // A map names an action's value by action and a table's column by column alone.
      const mappedRows = maps.flatMap((map) => {
        const row = map.tableColumnId
          ? offered.find((candidate) => candidate.tableColumnId === map.tableColumnId)
          : offeredByKey.get(keyOf({ actionId: map.actionId ?? '', tableColumnId: null }));
        return row ? [{ map, row }] : [];
      });
      const selectedKeys = [
        ...new Map(
          mappedRows.map(({ row }) => [
            keyOf(row),
            { actionId: row.actionId, tableColumnId: row.tableColumnId },
          ]),
        ).values(),
      ];
      const fields = dataset.fields.map((field) => ({
        datasetFieldId: field.id,
        name: field.name,
        type: field.type,
        dataSetKey: field.isKey,
      }));
      await drafts.put(userId, {
        id: dataset.id,
        isNew: false,
        type: dataset.type,
        name: dataset.name,
        description: dataset.description,
        fields,
        hasFields: true,
        selected: selectedKeys,
      });
      const actionIds = new Set(selectedKeys.map((key) => key.actionId));
      return {
        datasetDto: toDto(dataset),
        datasetFieldDtoList: fieldDtos(fields),
        datasetMap: mappedRows.map(({ map, row }) => ({
          datasetFieldId: map.datasetFieldId,
          datasetFieldName: map.datasetField.name,
          actionId: row.actionId,
          tableColumnId: map.tableColumnId,
        })),
        labelTablesColumnsDto: offered,
        labelTablesColumnsSelect: selectedKeys,
        actionList: [
          ...new Map(
            offered
              .filter((row) => actionIds.has(row.actionId))
              .map((row) => [
                row.actionId,
                {
                  id: row.actionId,
                  extractorId: row.extractorId,
                  extractorName: row.extractorLabelTableColumnDto.extractorName,
                  sequence: row.actionSequence,
                  type: row.actionType,
                  label: row.extractorLabelTableColumnDto.actionLabel,
                },
              ]),
          ).values(),
        ],
      };
    },

    /** Removes a field from the draft of this dataset (saved fields by id, new ones by name). */
    async removeField(
      userId: string,
      query: {
        datasetId: string;
        datasetFieldId?: string | undefined;
        datasetFieldName?: string | undefined;
      },
    ): Promise<DatasetFieldDto[]> {
      const next = await drafts.update(
        userId,
        async (draft) => {
          const index = draft.fields.findIndex((field) =>
            query.datasetFieldId
              ? field.datasetFieldId === query.datasetFieldId
              : field.datasetFieldId === null &&
                field.name.toLowerCase() === query.datasetFieldName?.trim().toLowerCase(),
          );
          if (index < 0) throw AppError.notFound(MESSAGES['error.not.found']);
          if (isEngineDatasetType(draft.type))
            throw engineFieldFixed(draft.fields[index]?.name ?? '', 'datasetFieldId');
          if (query.datasetFieldId && (await datasets.fieldsUsedByQueries([query.datasetFieldId])).size > 0)
            throw new AppError('CONFLICT', MESSAGES['dataset.field.remove.query'], 'datasetFieldId');
          return { ...draft, fields: draft.fields.filter((_, at) => at !== index) };
        },
        query.datasetId,
      );
      return fieldDtos(next.fields);
    },

    async hasData(userId: string, datasetId: string): Promise<boolean> {
      await ownedOrNotFound(userId, datasetId);
      return datasets.hasRows(datasetId);
    },

    async delete(userId: string, datasetId: string): Promise<void> {
      await ownedOrNotFound(userId, datasetId);
      if (await datasets.isUsedByQuery(datasetId))
        throw new AppError('CONFLICT', MESSAGES['dataset.delete.query']);
      const isDeleted = await datasets.delete(userId, datasetId).catch((error: unknown) => {
        throw tableChangeError(error);
      });
      if (!isDeleted) throw AppError.notFound(MESSAGES['dataset.not.found']);
      await drafts.dropIfOf(userId, datasetId);
    },

    async rename(userId: string, request: RenameDatasetRequest): Promise<DatasetDto> {
      await ownedOrNotFound(userId, request.id);
      if (await datasets.isNameTaken(userId, request.name, request.id)) throw nameTaken();
      await datasets.rename(userId, request.id, request.name, request.description);
      return toDto(await ownedOrNotFound(userId, request.id));
    },
  };
}
export type DatasetService = ReturnType<typeof createDatasetService>;
