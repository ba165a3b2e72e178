import type { DatasetQuery } from '@pagewright/db';
import {
  MESSAGES,
  queryOperator,
  type OrderType,
  type QueryDatasetField,
  type QueryDto,
  type QueryFieldDto,
  type QueryFilterDto,
  type QueryType,
  type ValueType,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';

/** A dataset field as the query wizard reads it. */
export interface DatasetFieldRow {
  id: string;
  name: string;
  type: ValueType;
  sequence: number;
}

/** The columns, filters and zone of a query, whether a draft or a saved query. */
export interface QueryShape {
  timeZone: string;
  fields: readonly {
    queryFieldId: string;
    datasetFieldId: string;
    orderType: OrderType | null;
    orderSequence: number | null;
  }[];
  filters: readonly {
    queryFilterId: string;
    datasetFieldId: string;
    operatorId: number;
    inputValue: string | null;
  }[];
}

export function datasetFieldDto(field: DatasetFieldRow): QueryDatasetField {
  return { datasetFieldId: field.id, name: field.name, type: field.type, sequence: field.sequence };
}

/** A field the query names is no longer in its dataset (removed by an edit of the dataset). */
const fieldGone = () => new AppError('CONFLICT', MESSAGES['query.no.draft']);

function fieldOf(fields: ReadonlyMap<string, DatasetFieldRow>, id: string): DatasetFieldRow {
  const field = fields.get(id);
  if (!field) throw fieldGone();
  return field;
}

export const byId = (fields: readonly DatasetFieldRow[]): Map<string, DatasetFieldRow> =>
  new Map(fields.map((field) => [field.id, field]));

export function queryFieldDtos(
  shape: QueryShape,
  datasetFields: readonly DatasetFieldRow[],
): QueryFieldDto[] {
  const fields = byId(datasetFields);
  return shape.fields.map((field, sequence) => {
    const datasetField = fieldOf(fields, field.datasetFieldId);
    return {
      queryFieldId: field.queryFieldId,
      datasetFieldId: field.datasetFieldId,
      name: datasetField.name,
      type: datasetField.type,
      sequence,
      orderType: field.orderType,
      orderSequence: field.orderSequence,
    };
  });
}

export function queryFilterDtos(shape: QueryShape): QueryFilterDto[] {
  return shape.filters.map((filter) => {
    const operator = queryOperator(filter.operatorId);
    return {
      queryFilterId: filter.queryFilterId,
      datasetFieldId: filter.datasetFieldId,
      operatorId: filter.operatorId,
      operatorType: operator?.operatorType ?? 'TEXT',
      operator: { operatorId: filter.operatorId, valueType: operator?.valueType ?? 'TEXT' },
      inputValue: filter.inputValue,
    };
  });
}

/** The SQL side's view of a query over its dataset's current fields. */
export function datasetQueryOf(
  datasetId: string,
  shape: QueryShape,
  datasetFields: readonly DatasetFieldRow[],
): DatasetQuery {
  const fields = byId(datasetFields);
  return {
    datasetId,
    timeZone: shape.timeZone,
    columns: shape.fields.map((field) => ({
      id: field.datasetFieldId,
      type: fieldOf(fields, field.datasetFieldId).type,
      orderType: field.orderType,
      orderSequence: field.orderSequence,
    })),
    filters: shape.filters.map((filter) => ({
      field: { id: filter.datasetFieldId, type: fieldOf(fields, filter.datasetFieldId).type },
      operatorId: filter.operatorId,
      inputValue: filter.inputValue,
    })),
  };
}

export function queryDto(query: {
  id: string;
  name: string;
  description: string;
  type: QueryType;
  timeZone: string;
  datasetId: string | null;
  updatedAt: Date;
  dataset: { name: string } | null;
}): QueryDto {
  return {
    id: query.id,
    name: query.name,
    description: query.description,
    type: query.type,
    timeZone: query.timeZone,
    datasetId: query.datasetId,
    datasetName: query.dataset?.name ?? null,
    updatedAt: query.updatedAt.toISOString(),
  };
}
