import {
  FILTER_DATE_PATTERN,
  FILTER_VALUE_SEPARATOR,
  MESSAGES,
  formatMessage,
  queryOperator,
  type OperatorName,
  type OrderType,
  type QueryOperator,
  type ValueType,
} from '@pagewright/shared';
import { aliasOf, datasetTable, fieldColumn } from './dataset-table.js';
import { ident, join, sql, sqlInteger, type SqlFragment, type SqlIdentifier } from './sql.js';
import type { SqlRunner } from './sql-runner.js';

/**
 * A query over one dataset's table (docs/datasets-and-queries.md): the chosen columns in order,
 * the filters AND-ed, the sort keys by order sequence with `_row_id` as the stable tie-break.
 * Table and column names come from ids only (datasetTable, fieldColumn); every value, the time zone
 * included, is a bound parameter.
 */

export interface DatasetQueryField {
  id: string;
  type: ValueType;
}

export interface DatasetQueryColumn extends DatasetQueryField {
  orderType?: OrderType | null;
  /** 1–9: the column's rank among the sort keys. */
  orderSequence?: number | null;
}

export interface DatasetQueryFilter {
  field: DatasetQueryField;
  operatorId: number;
  inputValue: string | null;
}

export interface DatasetQuery {
  datasetId: string;
  columns: readonly DatasetQueryColumn[];
  filters: readonly DatasetQueryFilter[];
  /** IANA zone in which date filters count days. */
  timeZone: string;
}

/** One cell: a text, a decimal string, an ISO 8601 UTC date-time or a file's name; FILE cells carry the file's id. */
export interface DatasetQueryCell {
  value: string | null;
  fileId: string | null;
}
/** A row's cells in the order of the query's columns. */
export type DatasetQueryRow = DatasetQueryCell[];

/** What is wrong with a filter, as the filter row shows it. */
export interface FilterProblem {
  field: 'operatorId' | 'inputValue';
  message: string;
}

/** A filter the query cannot run (the API checks filters before; this guards every other path). */
export class DatasetQueryError extends Error {
  constructor(
    readonly filterIndex: number,
    readonly problem: FilterProblem,
  ) {
    super(problem.message);
    this.name = 'DatasetQueryError';
  }
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/u;

type FilterValue =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'number'; number: string }
  | { kind: 'date'; date: string }
  | { kind: 'range'; from: string; to: string }
  | { kind: 'list'; items: string[] };

function decimalOf(text: string): string | null {
  const trimmed = text.trim();
  return DECIMAL.test(trimmed) ? trimmed : null;
}

/** A real calendar day as YYYY-MM-DD (not 2026-02-30), year 1 or later. */
function dayOf(text: string): string | null {
  const trimmed = text.trim();
  if (!FILTER_DATE_PATTERN.test(trimmed)) return null;
  const [year = 0, month = 0, day = 0] = trimmed.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  const isReal =
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day;
  return isReal ? trimmed : null;
}

/** `;`-separated items, trimmed, empty ones dropped. */
export function filterListItems(inputValue: string): string[] {
  return inputValue
    .split(FILTER_VALUE_SEPARATOR)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

const mandatory: FilterProblem = { field: 'inputValue', message: MESSAGES['query.all.fields.mandatory'] };

/** The filter's operator and its value read as the operator's kind, or what is wrong with them. */
function parseFilter(
  type: ValueType,
  operatorId: number,
  inputValue: string | null | undefined,
): { operator: QueryOperator; value: FilterValue } | { problem: FilterProblem } {
  const operator = queryOperator(operatorId);
  if (!operator || !Number.isInteger(operatorId)) return { problem: { ...mandatory, field: 'operatorId' } };
  if (!operator.appliesTo.includes(type))
    return {
      problem: { field: 'operatorId', message: formatMessage('query.operator.not.for.type', { type }) },
    };
  const parsed = readValue(type, operator, inputValue);
  return 'problem' in parsed ? parsed : { operator, value: parsed.value };
}

function readValue(
  type: ValueType,
  operator: QueryOperator,
  inputValue: string | null | undefined,
): { value: FilterValue } | { problem: FilterProblem } {
  if (operator.valueType === 'NONE') return { value: { kind: 'none' } };
  if (inputValue == null || inputValue.trim() === '') return { problem: mandatory };
  switch (operator.valueType) {
    case 'TEXT':
      return { value: { kind: 'text', text: inputValue } };
    case 'NUMBER': {
      const number = decimalOf(inputValue);
      return number === null
        ? { problem: { field: 'inputValue', message: MESSAGES['query.value.not.number'] } }
        : { value: { kind: 'number', number } };
    }
    case 'DATE': {
      const date = dayOf(inputValue);
      return date === null
        ? { problem: { field: 'inputValue', message: MESSAGES['query.value.not.date'] } }
        : { value: { kind: 'date', date } };
    }
    case 'DATE_RANGE': {
      const parts = inputValue.split(FILTER_VALUE_SEPARATOR);
      const from = parts.length === 2 ? dayOf(parts[0] ?? '') : null;
      const to = parts.length === 2 ? dayOf(parts[1] ?? '') : null;
      if (from === null || to === null)
        return { problem: { field: 'inputValue', message: MESSAGES['query.value.not.range'] } };
      // Dates given the wrong way round still mean the days between them.
      return { value: from <= to ? { kind: 'range', from, to } : { kind: 'range', from: to, to: from } };
    }
    case 'LIST': {
      const items = filterListItems(inputValue);
      if (items.length === 0) return { problem: mandatory };
      if (type === 'NUMBER') {
        const numbers = items.map(decimalOf);
        if (numbers.some((number) => number === null))
          return { problem: { field: 'inputValue', message: MESSAGES['query.value.not.number'] } };
        return { value: { kind: 'list', items: numbers as string[] } };
      }
      return { value: { kind: 'list', items } };
    }
  }
}

/**
 * Whether a filter can run on a field of this type: the operator applies to the type, and the value
 * is there when the operator needs one and reads as its kind (a decimal, a day, two days, a list).
 */
export function filterProblem(
  type: ValueType,
  operatorId: number,
  inputValue: string | null | undefined,
): FilterProblem | null {
  const parsed = parseFilter(type, operatorId, inputValue);
  return 'problem' in parsed ? parsed.problem : null;
}

/** LIKE's wildcards and escape character taken literally (PostgreSQL's default escape is `\`). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/gu, (character) => `\\${character}`);
}

/** What a filter's SQL reads: the field, its column, what text operators compare, the time zone. */
interface FilterTarget {
  field: DatasetQueryField;
  column: SqlFragment;
  /** A FILE field's file name, else the column. */
  compared: SqlFragment;
  /** IANA zone in which date filters count days. */
  timeZone: string;
}

// Negations keep empty cells: an empty cell is not equal to, does not contain, is not on a value.
const orEmpty = (target: FilterTarget, condition: SqlFragment) =>
  sql`(${target.column} IS NULL OR ${condition})`;
const like = (target: FilterTarget, pattern: string) => sql`${target.compared} ILIKE ${pattern}`;

/** The instant a day (a SQL date expression) starts in the query's time zone. */
const dayStart = (target: FilterTarget, day: SqlFragment) =>
  sql`((${day})::timestamp AT TIME ZONE ${target.timeZone})`;
const today = (target: FilterTarget) => sql`(now() AT TIME ZONE ${target.timeZone})::date`;
const nextDay = (day: SqlFragment) => sql`${day} + 1`;

/** The column within [from day, to day): both SQL date expressions. */
const daysBetween = (target: FilterTarget, fromDay: SqlFragment, toDay: SqlFragment) =>
  sql`(${target.column} >= ${dayStart(target, fromDay)} AND ${target.column} < ${dayStart(target, toDay)})`;
const lastDays = (target: FilterTarget, days: number) =>
  daysBetween(target, sql`${today(target)} - ${days}::int`, nextDay(today(target)));

function isInList(target: FilterTarget, items: string[]): SqlFragment {
  return target.field.type === 'NUMBER'
    ? sql`${target.column} = ANY(${items}::numeric[])`
    : sql`${target.compared} = ANY(${items}::text[])`;
}

/** The SQL of one operator, given the filter's target and its parsed value. */
type OperatorSql = (target: FilterTarget, value: FilterValue) => SqlFragment;

function valueOf<Kind extends FilterValue['kind']>(
  value: FilterValue,
  kind: Kind,
): Extract<FilterValue, { kind: Kind }> {
  // parseFilter reads the value by the same operator's valueType: a mismatch is a bug here.
  if (!isValueOf(value, kind)) throw new Error(`A filter that takes a ${kind} value got a ${value.kind}`);
  return value;
}
function isValueOf<Kind extends FilterValue['kind']>(
  value: FilterValue,
  kind: Kind,
): value is Extract<FilterValue, { kind: Kind }> {
  return value.kind === kind;
}

const withText =
  (condition: (target: FilterTarget, text: string) => SqlFragment): OperatorSql =>
  (target, value) =>
    condition(target, valueOf(value, 'text').text);
/** A number compared with `operator` (a decimal string, compared as numeric). */
const comparedTo =
  (operator: SqlFragment, { keepsEmpty = false } = {}): OperatorSql =>
  (target, value) => {
    const condition = sql`${target.column} ${operator} ${valueOf(value, 'number').number}::numeric`;
    return keepsEmpty ? orEmpty(target, condition) : condition;
  };
const withDay =
  (condition: (target: FilterTarget, day: SqlFragment) => SqlFragment): OperatorSql =>
  (target, value) =>
    condition(target, sql`${valueOf(value, 'date').date}::date`);
const withList =
  (condition: (target: FilterTarget, items: string[]) => SqlFragment): OperatorSql =>
  (target, value) =>
    condition(target, valueOf(value, 'list').items);
const withoutValue =
  (condition: (target: FilterTarget) => SqlFragment): OperatorSql =>
  (target, value) => {
    valueOf(value, 'none');
    return condition(target);
  };

/**
 * Each operator's SQL, looked up by its name (ids, value types and the field types each applies
 * to are in @pagewright/shared's QUERY_OPERATORS). Every operator has one entry: a new one does not
 * compile until it has its SQL.
 */
const OPERATOR_SQL = {
  equals: withText((target, text) => sql`${target.compared} = ${text}`),
  'not equals': withText((target, text) => orEmpty(target, sql`${target.compared} <> ${text}`)),
  contains: withText((target, text) => like(target, `%${likeLiteral(text)}%`)),
  'does not contain': withText((target, text) =>
    orEmpty(target, sql`NOT ${like(target, `%${likeLiteral(text)}%`)}`),
  ),
  'starts with': withText((target, text) => like(target, `${likeLiteral(text)}%`)),
  'ends with': withText((target, text) => like(target, `%${likeLiteral(text)}`)),
  '=': comparedTo(sql`=`),
  '≠': comparedTo(sql`<>`, { keepsEmpty: true }),
  '>': comparedTo(sql`>`),
  '<': comparedTo(sql`<`),
  '≥': comparedTo(sql`>=`),
  '≤': comparedTo(sql`<=`),
  on: withDay((target, day) => daysBetween(target, day, nextDay(day))),
  'not on': withDay((target, day) => orEmpty(target, sql`NOT ${daysBetween(target, day, nextDay(day))}`)),
  after: withDay((target, day) => sql`${target.column} >= ${dayStart(target, nextDay(day))}`),
  before: withDay((target, day) => sql`${target.column} < ${dayStart(target, day)}`),
  'on or after': withDay((target, day) => sql`${target.column} >= ${dayStart(target, day)}`),
  'on or before': withDay((target, day) => sql`${target.column} < ${dayStart(target, nextDay(day))}`),
  between: (target, value) => {
    const { from, to } = valueOf(value, 'range');
    return daysBetween(target, sql`${from}::date`, nextDay(sql`${to}::date`));
  },
  'in list': withList((target, items) => isInList(target, items)),
  'not in list': withList((target, items) => orEmpty(target, sql`NOT (${isInList(target, items)})`)),
  // An empty text is empty too: a page's blank cell reads as "".
  'is empty': withoutValue(({ field, column }) =>
    field.type === 'TEXT' ? sql`(${column} IS NULL OR ${column} = '')` : sql`${column} IS NULL`,
  ),
  'is not empty': withoutValue(({ field, column }) =>
    field.type === 'TEXT' ? sql`${column} <> ''` : sql`${column} IS NOT NULL`,
  ),
  today: withoutValue((target) => daysBetween(target, today(target), nextDay(today(target)))),
  'last 7 days': withoutValue((target) => lastDays(target, 6)),
  'last 30 days': withoutValue((target) => lastDays(target, 29)),
  'this month': withoutValue((target) => {
    const day = today(target);
    const month = sql`make_date(extract(year FROM ${day})::int, extract(month FROM ${day})::int, 1)`;
    return daysBetween(target, month, sql`(${month} + interval '1 month')::date`);
  }),
  'this year': withoutValue((target) => {
    const year = sql`make_date(extract(year FROM ${today(target)})::int, 1, 1)`;
    return daysBetween(target, year, sql`(${year} + interval '1 year')::date`);
  }),
} satisfies Record<OperatorName, OperatorSql>;

/** The SQL of one query: the FROM clause with the file joins it needs, the WHERE, the ORDER BY. */
class QuerySql {
  private readonly fileJoins = new Map<string, SqlIdentifier>();

  constructor(private readonly query: DatasetQuery) {}

  column(field: DatasetQueryField): SqlFragment {
    return sql`t.${ident(fieldColumn(field.id))}`;
  }

  /** The stored file's name, through a join on the file column (one per FILE field used). */
  fileName(field: DatasetQueryField): SqlFragment {
    let alias = this.fileJoins.get(field.id);
    if (!alias) {
      alias = aliasOf('sf', this.fileJoins.size);
      this.fileJoins.set(field.id, alias);
    }
    return sql`${ident(alias)}.name`;
  }

  /** What text operators, lists and sorting compare: a FILE field's file name, else the column. */
  compared(field: DatasetQueryField): SqlFragment {
    return field.type === 'FILE' ? this.fileName(field) : this.column(field);
  }

  /** Built after the rest of the statement: the file joins are those the other parts used. */
  from(): SqlFragment {
    const joins = [...this.fileJoins].map(
      ([fieldId, alias]) =>
        sql` LEFT JOIN public."StoredFile" ${ident(alias)} ON ${ident(alias)}.id = t.${ident(fieldColumn(fieldId))}`,
    );
    return sql`${ident(datasetTable(this.query.datasetId))} t${join(joins, sql``)}`;
  }

  condition(filter: DatasetQueryFilter, index: number): SqlFragment {
    const parsed = parseFilter(filter.field.type, filter.operatorId, filter.inputValue);
    if ('problem' in parsed) throw new DatasetQueryError(index, parsed.problem);
    const target: FilterTarget = {
      field: filter.field,
      column: this.column(filter.field),
      compared: this.compared(filter.field),
      timeZone: this.query.timeZone,
    };
    return OPERATOR_SQL[parsed.operator.name](target, parsed.value);
  }

  conditions(): SqlFragment[] {
    return this.query.filters.map((filter, index) => this.condition(filter, index));
  }

  /**
   * Columns with an order type or sequence, by sequence (those without one after, in column
   * order), then `_row_id`. PostgreSQL's defaults place empty cells: last ascending, first descending.
   */
  orderBy(): SqlFragment {
    const keys = this.query.columns
      .map((column, index) => ({ column, rank: column.orderSequence ?? 100 + index }))
      .filter(({ column }) => column.orderType != null || column.orderSequence != null)
      .sort((a, b) => a.rank - b.rank)
      .map(
        ({ column }) =>
          sql`${this.compared(column)} ${column.orderType === 'DESCENDING' ? sql`DESC` : sql`ASC`}`,
      );
    return sql` ORDER BY ${join([...keys, sql`t._row_id`])}`;
  }

  selectList(): SqlFragment {
    return join(
      this.query.columns.map((column, index) => {
        const value = this.column(column);
        const alias = ident(aliasOf('c', index));
        switch (column.type) {
          case 'TEXT':
            return sql`${value} AS ${alias}`;
          case 'NUMBER':
            return sql`${value}::text AS ${alias}`;
          case 'DATETIME':
            return sql`to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${alias}`;
          case 'FILE':
            return sql`${this.fileName(column)} AS ${alias}, ${value}::text AS ${ident(aliasOf('x', index))}`;
        }
      }),
    );
  }
}

const whereOf = (conditions: readonly SqlFragment[]) =>
  conditions.length > 0 ? sql` WHERE ${join(conditions, sql` AND `)}` : sql``;

/** A cell of the select: every column comes as text (selectList), or null. */
function textOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function rowOf(query: DatasetQuery, row: Record<string, unknown>): DatasetQueryRow {
  return query.columns.map((column, index) => ({
    value: textOf(row[`c${index}`]),
    fileId: column.type === 'FILE' ? textOf(row[`x${index}`]) : null,
  }));
}

/** The SELECT of every result row in order (the parts first: they name the file joins FROM needs). */
function selectSql(query: DatasetQuery, extra: { conditions?: SqlFragment[]; columns?: SqlFragment } = {}) {
  if (query.columns.length === 0) throw new Error('A query needs at least one column');
  const parts = new QuerySql(query);
  const where = whereOf([...parts.conditions(), ...(extra.conditions ?? [])]);
  const orderBy = parts.orderBy();
  const select = parts.selectList();
  return sql`SELECT ${select}${extra.columns ?? sql``} FROM ${parts.from()}${where}${orderBy}`;
}

async function countRows(runner: SqlRunner, query: DatasetQuery): Promise<number> {
  const parts = new QuerySql(query);
  const where = whereOf(parts.conditions());
  const [row] = await runner.query<{ total: number }>(
    sql`SELECT count(*)::int AS total FROM ${parts.from()}${where}`,
  );
  return Number(row?.total ?? 0);
}

/** One page of the result (`page` from 0) and how many rows match in all. */
export async function datasetQueryPage(
  runner: SqlRunner,
  query: DatasetQuery,
  paging: { page: number; size: number },
): Promise<{ rows: DatasetQueryRow[]; totalOfRows: number }> {
  const select = selectSql(query);
  const [rows, totalOfRows] = await Promise.all([
    runner.query(sql`${select} LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`),
    countRows(runner, query),
  ]);
  return { rows: rows.map((row) => rowOf(query, row)), totalOfRows };
}

/** Whether the query orders rows by some of its columns (else by `_row_id` alone). */
export function isSortedDatasetQuery(query: DatasetQuery): boolean {
  return query.columns.some((column) => column.orderType != null || column.orderSequence != null);
}

/** Where a page of the public API starts: after a row (unsorted results) or an offset into them. */
export type DatasetQueryPosition = { afterRowId: string } | { offset: number } | null;

/**
 * One page of the result for the public API's cursors (issue 26), each row with its `_row_id`:
 * after the row `afterRowId` (keyset on `_row_id`, for a query without sort keys: later fills never
 * shift it) or `offset` rows in (a sorted query). Reads `limit + 1` rows to tell whether more follow.
 */
export async function datasetQueryPageAt(
  runner: SqlRunner,
  query: DatasetQuery,
  position: DatasetQueryPosition,
  limit: number,
): Promise<{ rows: { rowId: string; cells: DatasetQueryRow }[]; hasMore: boolean }> {
  const afterRow =
    position && 'afterRowId' in position ? [sql`t._row_id > ${position.afterRowId}::bigint`] : [];
  const offset = position && 'offset' in position ? sql` OFFSET ${position.offset}` : sql``;
  const select = selectSql(query, { conditions: afterRow, columns: sql`, t._row_id::text AS row_id` });
  const rows = await runner.query(sql`${select} LIMIT ${limit + 1}${offset}`);
  return {
    rows: rows.slice(0, limit).map((row) => ({ rowId: String(row.row_id), cells: rowOf(query, row) })),
    hasMore: rows.length > limit,
  };
}

/** Every result row, a batch at a time, from one server-side cursor (constant memory). */
export interface DatasetQueryCursor {
  /** Rows the cursor gives in all (counted in the cursor's snapshot). */
  totalOfRows: number;
  /** The next batch; empty once every row was read. */
  read(): Promise<DatasetQueryRow[]>;
  /** Ends the cursor's transaction; call it whether or not every row was read. */
  close(): Promise<void>;
}

/**
 * Opens a cursor over the whole result. `runner` must be one connection outside a transaction (a
 * pool client): the cursor lives in a read-only REPEATABLE READ transaction of its own, so the count
 * and the rows come from one snapshot whatever runs fill meanwhile.
 */
export async function openDatasetQueryCursor(
  runner: SqlRunner,
  query: DatasetQuery,
  { batchSize = 1000 }: { batchSize?: number } = {},
): Promise<DatasetQueryCursor> {
  const select = selectSql(query);
  await runner.query(sql`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`);
  let isOpen = true;
  const close = async () => {
    if (!isOpen) return;
    isOpen = false;
    await runner.query(sql`COMMIT`);
  };
  try {
    const totalOfRows = await countRows(runner, query);
    await runner.query(sql`DECLARE dataset_query NO SCROLL CURSOR FOR ${select}`);
    const size = Math.max(1, Math.floor(batchSize));
    let isDone = false;
    return {
      totalOfRows,
      async read() {
        if (isDone || !isOpen) return [];
        const rows = await runner.query(sql`FETCH ${sqlInteger(size)} FROM dataset_query`);
        if (rows.length < size) isDone = true;
        return rows.map((row) => rowOf(query, row));
      },
      close,
    };
  } catch (error) {
    isOpen = false;
    await runner.query(sql`ROLLBACK`);
    throw error;
  }
}

/** A dataset's FILE fields, for finding whether its rows hold a file. */
export interface DatasetFileFields {
  datasetId: string;
  fileFieldIds: readonly string[];
}

/** Whether a row of one of these datasets holds the file (each FILE column has an index). */
export async function datasetsHoldFile(
  runner: SqlRunner,
  datasets: readonly DatasetFileFields[],
  fileId: string,
): Promise<boolean> {
  const checks = datasets.flatMap((dataset) =>
    dataset.fileFieldIds.map(
      (fieldId) =>
        sql`EXISTS (SELECT 1 FROM ${ident(datasetTable(dataset.datasetId))} WHERE ${ident(fieldColumn(fieldId))} = ${fileId}::uuid)`,
    ),
  );
  if (checks.length === 0) return false;
  const [row] = await runner.query<{ found: boolean }>(sql`SELECT (${join(checks, sql` OR `)}) AS found`);
  return row?.found === true;
}
