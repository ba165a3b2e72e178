import {
  FILTER_VALUE_SEPARATOR,
  type QueryFilterDto,
  type QueryFilterInput,
  type QueryOperatorDto,
  type ValueType,
} from '@pagewright/shared';

/** A row of step 3: field, operator and value, as typed (`rowKey` tells rows apart). */
export interface FilterRow {
  rowKey: string;
  queryFilterId: string | null;
  datasetFieldId: string;
  operatorId: number | null;
  inputValue: string;
}

/** What a row shows as wrong: its field, its operator, a text under its value. */
export interface FilterRowErrors {
  field?: boolean;
  operator?: boolean;
  value?: string;
}

let nextRowKey = 1;

export function blankFilterRow(): FilterRow {
  return {
    rowKey: `filter-${nextRowKey++}`,
    queryFilterId: null,
    datasetFieldId: '',
    operatorId: null,
    inputValue: '',
  };
}

export function filterRowsOf(filters: readonly QueryFilterDto[]): FilterRow[] {
  return filters.map((filter) => ({
    rowKey: filter.queryFilterId,
    queryFilterId: filter.queryFilterId,
    datasetFieldId: filter.datasetFieldId,
    operatorId: filter.operatorId,
    inputValue: filter.inputValue ?? '',
  }));
}

/** The operators offered for a field of this type (each operator says which types it applies to). */
export function operatorsFor(
  operators: readonly QueryOperatorDto[],
  type: ValueType | undefined,
): QueryOperatorDto[] {
  return type === undefined ? [] : operators.filter((operator) => operator.appliesTo.includes(type));
}

/** "between" takes two dates joined by ';' (from;to). */
export function splitRange(value: string): [string, string] {
  const [from = '', to = ''] = value.split(FILTER_VALUE_SEPARATOR);
  return [from, to];
}

export function joinRange(from: string, to: string): string {
  return from === '' && to === '' ? '' : `${from}${FILTER_VALUE_SEPARATOR}${to}`;
}

/** What a row still lacks (data spec §5: every filter needs a value except operators 22-28). */
export function missingOf(
  row: FilterRow,
  operators: readonly QueryOperatorDto[],
): { field: boolean; operator: boolean; value: boolean } {
  const operator = operators.find((candidate) => candidate.operatorId === row.operatorId);
  const value = row.inputValue.trim();
  const isValueMissing =
    operator !== undefined &&
    operator.valueType !== 'NONE' &&
    (operator.valueType === 'DATE_RANGE'
      ? splitRange(value).some((part) => part.trim() === '')
      : value === '');
  return { field: row.datasetFieldId === '', operator: operator === undefined, value: isValueMissing };
}

export function filterInputsOf(
  rows: readonly FilterRow[],
  operators: readonly QueryOperatorDto[],
): QueryFilterInput[] {
  return rows.map((row) => {
    const operator = operators.find((candidate) => candidate.operatorId === row.operatorId);
    return {
      queryFilterId: row.queryFilterId,
      datasetFieldId: row.datasetFieldId,
      operatorId: row.operatorId ?? 0,
      inputValue: operator?.valueType === 'NONE' ? null : row.inputValue.trim(),
    };
  });
}
