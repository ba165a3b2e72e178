import { randomUUID } from 'node:crypto';
import { filterProblem } from '@pagewright/db';
import {
  MESSAGES,
  QUERY_OPERATORS,
  isEngineDatasetType,
  queryOperator,
  type CreateQueryRequest,
  type DatasetType,
  type QueryType,
  type QueryDataset,
  type QueryDto,
  type QueryEditResponse,
  type QueryFieldDto,
  type QueryFieldStepResponse,
  type QueryFilterDto,
  type QueryFilterInput,
  type QueryFilterStepResponse,
  type QueryOperatorDto,
  type RenameQueryRequest,
  type SelectQueryFieldsRequest,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import {
  noDraft,
  type QueryDraft,
  type QueryDraftFilter,
  type QueryDraftStore,
} from './query-draft.store.js';
import {
  byId,
  datasetFieldDto,
  queryDto,
  queryFieldDtos,
  queryFilterDtos,
  type DatasetFieldRow,
} from './query-dtos.js';
import type { QueryRepository } from './queries.repository.js';

const nameTaken = () => new AppError('NAME_EXISTS', MESSAGES['query.list.error.unique'], 'name');
const queryNotFound = () => AppError.notFound(MESSAGES['query.not.found']);
/** A query over an engine dataset is a FENGINE query; it reads and edits like a custom one. */
const queryTypeOf = (datasetType: DatasetType): QueryType =>
  isEngineDatasetType(datasetType) ? 'FENGINE' : 'CUSTOM';

const datasetRequired = () => AppError.validation(MESSAGES['query.dataset.required'], 'datasetId');
const fieldRequired = () => AppError.validation(MESSAGES['query.field.required'], 'fields');
/** A draft holds at most as many filters as step 3 may send at once. */
const MAX_FILTERS = 50;

type OwnedDataset = NonNullable<Awaited<ReturnType<QueryRepository['findDataset']>>>;

/** The query wizard on the caller's draft, the dashboard list, rename and delete (data spec §2, §4, §7). */
export function createQueryService(deps: { queries: QueryRepository; drafts: QueryDraftStore }) {
  const { queries, drafts } = deps;

  async function ownedDataset(userId: string, datasetId: string) {
    const dataset = await queries.findDataset(userId, datasetId);
    if (!dataset) throw AppError.notFound(MESSAGES['dataset.not.found']);
    return dataset;
  }

  /** The draft and its dataset (step 1 done). */
  async function draftWithDataset(userId: string) {
    const draft = await drafts.get(userId);
    if (!draft.datasetId) throw datasetRequired();
    return { draft, dataset: await ownedDataset(userId, draft.datasetId) };
  }

  /**
   * Changes the draft (step 1 done) with `change`, given its dataset; returns the draft as written
   * and that dataset. A write in between (another tab) makes `change` run again on the newer draft.
   */
  async function changeWithDataset(
    userId: string,
    change: (draft: QueryDraft, dataset: OwnedDataset) => QueryDraft,
  ): Promise<{ draft: QueryDraft; dataset: OwnedDataset }> {
    let dataset: OwnedDataset | undefined;
    const draft = await drafts.update(userId, async (current) => {
      if (!current.datasetId) throw datasetRequired();
      dataset = await ownedDataset(userId, current.datasetId);
      return change(current, dataset);
    });
    if (!dataset) throw datasetRequired();
    return { draft, dataset };
  }

  /** A filter the draft can keep: a field of its dataset, an operator for its type, a fitting value. */
  function checkedFilter(
    input: QueryFilterInput,
    fields: ReadonlyMap<string, DatasetFieldRow>,
    path: string,
    queryFilterId: string,
  ): QueryDraftFilter {
    const field = fields.get(input.datasetFieldId);
    if (!field) throw AppError.validation(MESSAGES['error.invalid.value'], `${path}datasetFieldId`);
    const problem = filterProblem(field.type, input.operatorId, input.inputValue);
    if (problem) throw AppError.validation(problem.message, `${path}${problem.field}`);
    const needsValue = queryOperator(input.operatorId)?.valueType !== 'NONE';
    return {
      queryFilterId,
      datasetFieldId: field.id,
      operatorId: input.operatorId,
      inputValue: needsValue ? (input.inputValue ?? null) : null,
    };
  }

  function filterList(draft: QueryDraft): { queryFilterList: QueryFilterDto[] } {
    return { queryFilterList: queryFilterDtos(draft) };
  }

  return {
    async dashboard(userId: string): Promise<QueryDto[]> {
      return (await queries.list(userId)).map(queryDto);
    },

    /** Opens the caller's one draft on a new query (an earlier draft ends). */
    async create(userId: string, request: CreateQueryRequest): Promise<{ id: string }> {
      if (await queries.isNameTaken(userId, request.name)) throw nameTaken();
      const id = randomUUID();
      await drafts.put(userId, {
        id,
        isNew: true,
        type: 'CUSTOM',
        ...request,
        datasetId: null,
        fields: [],
        filters: [],
      });
      return { id };
    },

    /** Step 1's choice: the caller's datasets, each saying whether it holds rows yet. */
    async datasets(userId: string): Promise<QueryDataset[]> {
      const datasets = await queries.listDatasets(userId);
      return Promise.all(
        datasets.map(async (dataset) => ({ ...dataset, hasData: await queries.hasRows(dataset.id) })),
      );
    },

    /** Step 1 → Next; another dataset than before clears the chosen fields and filters. */
    async chooseDataset(userId: string, datasetId: string): Promise<QueryDataset> {
      // No draft answers before an unknown dataset does, as the wizard's first check.
      await drafts.get(userId);
      const dataset = await ownedDataset(userId, datasetId);
      await drafts.update(userId, (draft) =>
        draft.datasetId === datasetId
          ? draft
          : { ...draft, type: queryTypeOf(dataset.type), datasetId, fields: [], filters: [] },
      );
      return {
        id: dataset.id,
        name: dataset.name,
        description: dataset.description,
        type: dataset.type,
        hasData: await queries.hasRows(dataset.id),
      };
    },

    async fieldStep(userId: string): Promise<QueryFieldStepResponse> {
      const { draft, dataset } = await draftWithDataset(userId);
      return {
        datasetFieldList: dataset.fields.map(datasetFieldDto),
        queryFieldList: queryFieldDtos(draft, dataset.fields),
      };
    },

    /** Step 2 → Next: the chosen columns in order, each keeping its id if it was chosen before. */
    async selectFields(userId: string, request: SelectQueryFieldsRequest): Promise<QueryFieldStepResponse> {
      const { draft: next, dataset } = await changeWithDataset(userId, (draft, dataset) => {
        const known = byId(dataset.fields);
        const before = new Map(draft.fields.map((field) => [field.datasetFieldId, field.queryFieldId]));
        const seen = new Set<string>();
        const fields = request.fields.map((field, index) => {
          if (!known.has(field.datasetFieldId) || seen.has(field.datasetFieldId))
            throw AppError.validation(MESSAGES['error.invalid.value'], `fields.${index}.datasetFieldId`);
          seen.add(field.datasetFieldId);
          return {
            queryFieldId: before.get(field.datasetFieldId) ?? randomUUID(),
            datasetFieldId: field.datasetFieldId,
            orderType: field.orderType ?? (field.orderSequence == null ? null : 'ASCENDING'),
            orderSequence: field.orderSequence ?? null,
          };
        });
        return { ...draft, fields };
      });
      return {
        datasetFieldList: dataset.fields.map(datasetFieldDto),
        queryFieldList: queryFieldDtos(next, dataset.fields),
      };
    },

    /** Step 3: every field of the dataset can be filtered, shown as a column or not. */
    async filterStep(userId: string): Promise<QueryFilterStepResponse> {
      const { draft, dataset } = await draftWithDataset(userId);
      if (draft.fields.length === 0) throw fieldRequired();
      return { datasetFieldList: dataset.fields.map(datasetFieldDto), ...filterList(draft) };
    },

    operators(): QueryOperatorDto[] {
      return QUERY_OPERATORS.map((operator) => ({ ...operator, appliesTo: [...operator.appliesTo] }));
    },

    /** Adds one filter, or changes the one with its id. */
    async putFilter(userId: string, input: QueryFilterInput): Promise<{ queryFilterList: QueryFilterDto[] }> {
      // A new filter's id is made once: a retry after a conflict adds the same filter, not another.
      const queryFilterId = input.queryFilterId ?? randomUUID();
      const { draft: next } = await changeWithDataset(userId, (draft, dataset) => {
        const at = input.queryFilterId
          ? draft.filters.findIndex((filter) => filter.queryFilterId === input.queryFilterId)
          : -1;
        if (input.queryFilterId && at < 0) throw AppError.notFound();
        if (at < 0 && draft.filters.length >= MAX_FILTERS)
          throw AppError.validation(`A query has at most ${MAX_FILTERS} filters`, 'queryFilterId');
        const filter = checkedFilter(input, byId(dataset.fields), '', queryFilterId);
        const filters =
          at < 0
            ? [...draft.filters, filter]
            : draft.filters.map((old, index) => (index === at ? filter : old));
        return { ...draft, filters };
      });
      return filterList(next);
    },

    /** Step 3 → Next: the whole filter list (ids of filters kept from before stay). */
    async setFilters(userId: string, inputs: readonly QueryFilterInput[]) {
      const { draft: next } = await changeWithDataset(userId, (draft, dataset) => {
        const fields = byId(dataset.fields);
        const known = new Set(draft.filters.map((filter) => filter.queryFilterId));
        const filters = inputs.map((input, index) =>
          checkedFilter(
            input,
            fields,
            `filters.${index}.`,
            input.queryFilterId && known.has(input.queryFilterId) ? input.queryFilterId : randomUUID(),
          ),
        );
        return { ...draft, filters };
      });
      return filterList(next);
    },

    /** Removes a chosen column or a filter from the draft. */
    async remove(
      userId: string,
      ids: { queryFieldId?: string | undefined; queryFilterId?: string | undefined },
    ): Promise<{ queryFieldList: QueryFieldDto[]; queryFilterList: QueryFilterDto[] }> {
      if (!ids.queryFieldId && !ids.queryFilterId)
        throw AppError.validation(MESSAGES['error.required'], 'queryFieldId');
      const { draft: next, dataset } = await changeWithDataset(userId, (draft) => {
        const fields = draft.fields.filter((field) => field.queryFieldId !== ids.queryFieldId);
        const filters = draft.filters.filter((filter) => filter.queryFilterId !== ids.queryFilterId);
        const removed = draft.fields.length - fields.length + draft.filters.length - filters.length;
        if (removed !== Number(Boolean(ids.queryFieldId)) + Number(Boolean(ids.queryFilterId)))
          throw AppError.notFound();
        return { ...draft, fields, filters };
      });
      return { queryFieldList: queryFieldDtos(next, dataset.fields), ...filterList(next) };
    },

    async cancel(userId: string): Promise<void> {
      await drafts.drop(userId);
    },

    /** Writes the draft of this query (Query, QueryField, QueryFilter in one transaction). */
    async save(userId: string, queryId: string): Promise<{ id: string }> {
      const draft = await drafts.find(userId);
      if (draft?.id !== queryId) {
        // Another user's query is unknown here; the caller's own one has no wizard open.
        if (await queries.findOwned(userId, queryId)) throw noDraft();
        throw queryNotFound();
      }
      if (!draft.datasetId) throw datasetRequired();
      if (draft.fields.length === 0) throw fieldRequired();
      const dataset = await ownedDataset(userId, draft.datasetId);
      // The dataset may have changed since the draft was made: every field and filter must still fit.
      const fields = byId(dataset.fields);
      if (draft.fields.some((field) => !fields.has(field.datasetFieldId)))
        throw new AppError('CONFLICT', MESSAGES['query.no.draft']);
      draft.filters.forEach((filter, index) =>
        checkedFilter(filter, fields, `filters.${index}.`, filter.queryFilterId),
      );
      if (!draft.isNew && !(await queries.findOwned(userId, draft.id))) throw queryNotFound();
      if (await queries.isNameTaken(userId, draft.name, draft.isNew ? undefined : draft.id))
        throw nameTaken();
      const saved = await queries
        .save(userId, {
          id: draft.id,
          isNew: draft.isNew,
          type: queryTypeOf(dataset.type),
          name: draft.name,
          description: draft.description,
          timeZone: draft.timeZone,
          datasetId: dataset.id,
          fields: draft.fields.map((field) => ({
            id: field.queryFieldId,
            datasetFieldId: field.datasetFieldId,
            orderType: field.orderType,
            orderSequence: field.orderSequence,
          })),
          filters: draft.filters.map((filter) => ({
            id: filter.queryFilterId,
            datasetFieldId: filter.datasetFieldId,
            operatorId: filter.operatorId,
            operatorType: queryOperator(filter.operatorId)?.operatorType ?? 'TEXT',
            inputValue: filter.inputValue,
          })),
        })
        .catch((error: unknown) => {
          throw isUniqueViolation(error) ? nameTaken() : error;
        });
      if (!saved) throw queryNotFound();
      await drafts.drop(userId);
      return { id: draft.id };
    },

    /** Opens the caller's draft on a saved query (CUSTOM or FENGINE) and answers all the wizard shows. */
    async edit(userId: string, queryId: string): Promise<QueryEditResponse> {
      const query = await queries.findOwned(userId, queryId);
      if (!query) throw queryNotFound();
      const dataset = query.datasetId ? await queries.findDataset(userId, query.datasetId) : null;
      const draft: QueryDraft = {
        id: query.id,
        isNew: false,
        type: query.type,
        name: query.name,
        description: query.description,
        timeZone: query.timeZone,
        datasetId: query.datasetId,
        fields: query.fields.map((field) => ({
          queryFieldId: field.id,
          datasetFieldId: field.datasetFieldId,
          orderType: field.orderType,
          orderSequence: field.orderSequence,
        })),
        filters: query.filters.map((filter) => ({
          queryFilterId: filter.id,
          datasetFieldId: filter.datasetFieldId,
          operatorId: filter.operatorId,
          inputValue: filter.inputValue,
        })),
      };
      await drafts.put(userId, draft);
      return {
        query: queryDto(query),
        queryDataset: dataset && {
          id: dataset.id,
          name: dataset.name,
          description: dataset.description,
          type: dataset.type,
          hasData: await queries.hasRows(dataset.id),
        },
        queryFieldList: queryFieldDtos(draft, dataset?.fields ?? []),
        queryFilterList: queryFilterDtos(draft),
      };
    },

    async delete(userId: string, queryId: string): Promise<void> {
      if (!(await queries.delete(userId, queryId))) throw queryNotFound();
      await drafts.dropIfOf(userId, queryId);
    },

    async rename(userId: string, request: RenameQueryRequest): Promise<QueryDto> {
      if (!(await queries.findOwned(userId, request.id))) throw queryNotFound();
      if (await queries.isNameTaken(userId, request.name, request.id)) throw nameTaken();
      await queries.rename(userId, request.id, request.name, request.description).catch((error: unknown) => {
        throw isUniqueViolation(error) ? nameTaken() : error;
      });
      const renamed = await queries.findOwned(userId, request.id);
      if (!renamed) throw queryNotFound();
      return queryDto(renamed);
    },
  };
}
export type QueryService = ReturnType<typeof createQueryService>;
