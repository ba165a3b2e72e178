import type { ValueType } from './enums.js';

/**
 * The filter operators of GET /query/datasetoperator, with the spec's id ranges (data spec §5:
 * 22-28 take no value, 13-19 a date). `operatorType` is the family, `valueType` the input the
 * filter row shows, `appliesTo` the field types it is offered for. The API turns each into SQL
 * with bound values only (packages/db/src/datasets/dataset-query.ts).
 */
export const OPERATOR_FAMILIES = ['TEXT', 'NUMBER', 'DATETIME', 'LIST', 'NO_VALUE'] as const;
export type OperatorFamily = (typeof OPERATOR_FAMILIES)[number];

/** What the filter's input holds: a text, a number, a date (YYYY-MM-DD), two dates, a `;` list, nothing. */
export const OPERATOR_VALUE_TYPES = ['TEXT', 'NUMBER', 'DATE', 'DATE_RANGE', 'LIST', 'NONE'] as const;
export type OperatorValueType = (typeof OPERATOR_VALUE_TYPES)[number];

interface OperatorDefinition {
  operatorId: number;
  name: string;
  operatorType: OperatorFamily;
  valueType: OperatorValueType;
  appliesTo: readonly ValueType[];
}

const TEXTUAL: readonly ValueType[] = ['TEXT', 'FILE'];
const ALL: readonly ValueType[] = ['TEXT', 'NUMBER', 'DATETIME', 'FILE'];

const OPERATORS = [
  { operatorId: 1, name: 'equals', operatorType: 'TEXT', valueType: 'TEXT', appliesTo: TEXTUAL },
  { operatorId: 2, name: 'not equals', operatorType: 'TEXT', valueType: 'TEXT', appliesTo: TEXTUAL },
  { operatorId: 3, name: 'contains', operatorType: 'TEXT', valueType: 'TEXT', appliesTo: TEXTUAL },
  { operatorId: 4, name: 'does not contain', operatorType: 'TEXT', valueType: 'TEXT', appliesTo: TEXTUAL },
  { operatorId: 5, name: 'starts with', operatorType: 'TEXT', valueType: 'TEXT', appliesTo: TEXTUAL },
  { operatorId: 6, name: 'ends with', operatorType: 'TEXT', valueType: 'TEXT', appliesTo: TEXTUAL },
  { operatorId: 7, name: '=', operatorType: 'NUMBER', valueType: 'NUMBER', appliesTo: ['NUMBER'] },
  { operatorId: 8, name: '≠', operatorType: 'NUMBER', valueType: 'NUMBER', appliesTo: ['NUMBER'] },
  { operatorId: 9, name: '>', operatorType: 'NUMBER', valueType: 'NUMBER', appliesTo: ['NUMBER'] },
  { operatorId: 10, name: '<', operatorType: 'NUMBER', valueType: 'NUMBER', appliesTo: ['NUMBER'] },
  { operatorId: 11, name: '≥', operatorType: 'NUMBER', valueType: 'NUMBER', appliesTo: ['NUMBER'] },
  { operatorId: 12, name: '≤', operatorType: 'NUMBER', valueType: 'NUMBER', appliesTo: ['NUMBER'] },
  { operatorId: 13, name: 'on', operatorType: 'DATETIME', valueType: 'DATE', appliesTo: ['DATETIME'] },
  { operatorId: 14, name: 'not on', operatorType: 'DATETIME', valueType: 'DATE', appliesTo: ['DATETIME'] },
  { operatorId: 15, name: 'after', operatorType: 'DATETIME', valueType: 'DATE', appliesTo: ['DATETIME'] },
  { operatorId: 16, name: 'before', operatorType: 'DATETIME', valueType: 'DATE', appliesTo: ['DATETIME'] },
  {
    operatorId: 17,
    name: 'on or after',
    operatorType: 'DATETIME',
    valueType: 'DATE',
    appliesTo: ['DATETIME'],
  },
  {
    operatorId: 18,
    name: 'on or before',
    operatorType: 'DATETIME',
    valueType: 'DATE',
    appliesTo: ['DATETIME'],
  },
  {
    operatorId: 19,
    name: 'between',
    operatorType: 'DATETIME',
    valueType: 'DATE_RANGE',
    appliesTo: ['DATETIME'],
  },
  {
    operatorId: 20,
    name: 'in list',
    operatorType: 'LIST',
    valueType: 'LIST',
    appliesTo: ['TEXT', 'NUMBER', 'FILE'],
  },
  {
    operatorId: 21,
    name: 'not in list',
    operatorType: 'LIST',
    valueType: 'LIST',
    appliesTo: ['TEXT', 'NUMBER', 'FILE'],
  },
  { operatorId: 22, name: 'is empty', operatorType: 'NO_VALUE', valueType: 'NONE', appliesTo: ALL },
  { operatorId: 23, name: 'is not empty', operatorType: 'NO_VALUE', valueType: 'NONE', appliesTo: ALL },
  { operatorId: 24, name: 'today', operatorType: 'NO_VALUE', valueType: 'NONE', appliesTo: ['DATETIME'] },
  {
    operatorId: 25,
    name: 'last 7 days',
    operatorType: 'NO_VALUE',
    valueType: 'NONE',
    appliesTo: ['DATETIME'],
  },
  {
    operatorId: 26,
    name: 'last 30 days',
    operatorType: 'NO_VALUE',
    valueType: 'NONE',
    appliesTo: ['DATETIME'],
  },
  {
    operatorId: 27,
    name: 'this month',
    operatorType: 'NO_VALUE',
    valueType: 'NONE',
    appliesTo: ['DATETIME'],
  },
  { operatorId: 28, name: 'this year', operatorType: 'NO_VALUE', valueType: 'NONE', appliesTo: ['DATETIME'] },
] as const satisfies readonly OperatorDefinition[];

/** An operator's name: the SQL side looks each operator up by it (dataset-query.ts's OPERATOR_SQL). */
export type OperatorName = (typeof OPERATORS)[number]['name'];

export interface QueryOperator extends OperatorDefinition {
  name: OperatorName;
}

export const QUERY_OPERATORS: readonly QueryOperator[] = OPERATORS;

export function queryOperator(operatorId: number): QueryOperator | undefined {
  return QUERY_OPERATORS[operatorId - 1];
}

/** Separator of LIST values ("a;b;c") and of the two dates of "between" ("2026-01-01;2026-01-31"). */
export const FILTER_VALUE_SEPARATOR = ';';

/** YYYY-MM-DD, the one date format filter values take (the date input's value). */
export const FILTER_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/u;
