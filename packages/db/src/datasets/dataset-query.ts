import {
  FILTER_DATE_PATTERN,
  FILTER_VALUE_SEPARATOR,
  MESSAGES,
  formatMessage,
  queryOperator,
  type OrderType,
  type ValueType,
} from '@pagewright/shared';
import { datasetTable, fieldColumn } from './dataset-table.js';
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
const NUMBER_COMPARISONS: Readonly<Record<number, string>> = {
  7: '=',
  8: '<>',
  9: '>',
  10: '<',
  11: '>=',
  12: '<=',
};

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

function parseFilter(
  type: ValueType,
  operatorId: number,
  inputValue: string | null | undefined,
): { value: FilterValue } | { problem: FilterProblem } {
  const operator = queryOperator(operatorId);
  if (!operator || !Number.isInteger(operatorId)) return { problem: { ...mandatory, field: 'operatorId' } };
  if (!operator.appliesTo.includes(type))
    return {
      problem: { field: 'operatorId', message: formatMessage('query.operator.not.for.type', { type }) },
    };
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

/** Bound values, numbered as they are added. */
class Parameters {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The SQL of one query: the FROM clause with the file joins it needs, the WHERE, the ORDER BY. */
class QuerySql {
  readonly parameters = new Parameters();
  private readonly fileJoins = new Map<string, string>();
  private timeZoneParameter: string | undefined;

  constructor(private readonly query: DatasetQuery) {}

  column(field: DatasetQueryField): string {
    return `t.${fieldColumn(field.id)}`;
  }

  /** The stored file's name, through a join on the file column (one per FILE field used). */
  fileName(field: DatasetQueryField): string {
    let alias = this.fileJoins.get(field.id);
    if (!alias) {
      alias = `sf${this.fileJoins.size}`;
      this.fileJoins.set(field.id, alias);
    }
    return `${alias}.name`;
  }

  /** What text operators, lists and sorting compare: a FILE field's file name, else the column. */
  compared(field: DatasetQueryField): string {
    return field.type === 'FILE' ? this.fileName(field) : this.column(field);
  }

  from(): string {
    const joins = [...this.fileJoins].map(
      ([fieldId, alias]) =>
        ` LEFT JOIN public."StoredFile" ${alias} ON ${alias}.id = t.${fieldColumn(fieldId)}`,
    );
    return `${datasetTable(this.query.datasetId)} t${joins.join('')}`;
  }

  private timeZone(): string {
    this.timeZoneParameter ??= this.parameters.add(this.query.timeZone);
    return this.timeZoneParameter;
  }

  /** The instant a day (a SQL date expression) starts in the query's time zone. */
  private dayStart(day: string): string {
    return `((${day})::timestamp AT TIME ZONE ${this.timeZone()})`;
  }

  private today(): string {
    return `(now() AT TIME ZONE ${this.timeZone()})::date`;
  }

  /** `column` within [from day, to day) — both SQL date expressions. */
  private daysBetween(column: string, fromDay: string, toDay: string): string {
    return `(${column} >= ${this.dayStart(fromDay)} AND ${column} < ${this.dayStart(toDay)})`;
  }

  condition(filter: DatasetQueryFilter, index: number): string {
    const parsed = parseFilter(filter.field.type, filter.operatorId, filter.inputValue);
    if ('problem' in parsed) throw new DatasetQueryError(index, parsed.problem);
    const { value } = parsed;
    const { field } = filter;
    const column = this.column(field);
    const compared = this.compared(field);
    // Negations keep empty cells: an empty cell is not equal to, does not contain, is not on a value.
    const orEmpty = (condition: string) => `(${column} IS NULL OR ${condition})`;
    const date = (day: string) => `${this.parameters.add(day)}::date`;

    switch (value.kind) {
      case 'text': {
        const text = value.text;
        const like = (pattern: string) => `${compared} ILIKE ${this.parameters.add(pattern)}`;
        switch (filter.operatorId) {
          case 1:
            return `${compared} = ${this.parameters.add(text)}`;
          case 2:
            return orEmpty(`${compared} <> ${this.parameters.add(text)}`);
          case 3:
            return like(`%${likeLiteral(text)}%`);
          case 4:
            return orEmpty(`NOT ${like(`%${likeLiteral(text)}%`)}`);
          case 5:
            return like(`${likeLiteral(text)}%`);
          default:
            return like(`%${likeLiteral(text)}`);
        }
      }
      case 'number': {
        const number = `${this.parameters.add(value.number)}::numeric`;
        const condition = `${column} ${NUMBER_COMPARISONS[filter.operatorId] ?? '='} ${number}`;
        return filter.operatorId === 8 ? orEmpty(condition) : condition;
      }
      case 'date': {
        const day = date(value.date);
        switch (filter.operatorId) {
          case 13:
            return this.daysBetween(column, day, `${day} + 1`);
          case 14:
            return orEmpty(`NOT ${this.daysBetween(column, day, `${day} + 1`)}`);
          case 15:
            return `${column} >= ${this.dayStart(`${day} + 1`)}`;
          case 16:
            return `${column} < ${this.dayStart(day)}`;
          case 17:
            return `${column} >= ${this.dayStart(day)}`;
          default:
            return `${column} < ${this.dayStart(`${day} + 1`)}`;
        }
      }
      case 'range':
        return this.daysBetween(column, date(value.from), `${date(value.to)} + 1`);
      case 'list': {
        const items = this.parameters.add(value.items);
        const isIn =
          field.type === 'NUMBER'
            ? `${column} = ANY(${items}::numeric[])`
            : `${compared} = ANY(${items}::text[])`;
        return filter.operatorId === 20 ? isIn : orEmpty(`NOT (${isIn})`);
      }
      case 'none': {
        // An empty text is empty too: a page's blank cell reads as "".
        const isEmpty = field.type === 'TEXT' ? `(${column} IS NULL OR ${column} = '')` : `${column} IS NULL`;
        switch (filter.operatorId) {
          case 22:
            return isEmpty;
          case 23:
            return field.type === 'TEXT' ? `${column} <> ''` : `${column} IS NOT NULL`;
          case 24:
            return this.daysBetween(column, this.today(), `${this.today()} + 1`);
          case 25:
            return this.daysBetween(column, `${this.today()} - 6`, `${this.today()} + 1`);
          case 26:
            return this.daysBetween(column, `${this.today()} - 29`, `${this.today()} + 1`);
          case 27: {
            const today = this.today();
            const month = `make_date(extract(year FROM ${today})::int, extract(month FROM ${today})::int, 1)`;
            return this.daysBetween(column, month, `(${month} + interval '1 month')::date`);
          }
          default: {
            const year = `make_date(extract(year FROM ${this.today()})::int, 1, 1)`;
            return this.daysBetween(column, year, `(${year} + interval '1 year')::date`);
          }
        }
      }
    }
  }

  where(): string {
    const conditions = this.query.filters.map((filter, index) => this.condition(filter, index));
    return conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  }

  /**
   * Columns with an order type or sequence, by sequence (those without one after, in column
   * order), then `_row_id`. PostgreSQL's defaults place empty cells: last ascending, first descending.
   */
  orderBy(): string {
    const keys = this.query.columns
      .map((column, index) => ({ column, rank: column.orderSequence ?? 100 + index }))
      .filter(({ column }) => column.orderType != null || column.orderSequence != null)
      .sort((a, b) => a.rank - b.rank)
      .map(({ column }) => `${this.compared(column)} ${column.orderType === 'DESCENDING' ? 'DESC' : 'ASC'}`);
    return ` ORDER BY ${[...keys, 't._row_id'].join(', ')}`;
  }

  selectList(): string {
    return this.query.columns
      .map((column, index) => {
        const sql = this.column(column);
        switch (column.type) {
          case 'TEXT':
            return `${sql} AS c${index}`;
          case 'NUMBER':
            return `${sql}::text AS c${index}`;
          case 'DATETIME':
            return `to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS c${index}`;
          case 'FILE':
            return `${this.fileName(column)} AS c${index}, ${sql}::text AS x${index}`;
        }
      })
      .join(', ');
  }
}

function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}

function rowOf(query: DatasetQuery, row: Record<string, unknown>): DatasetQueryRow {
  return query.columns.map((column, index) => ({
    value: textOf(row[`c${index}`]),
    fileId: column.type === 'FILE' ? textOf(row[`x${index}`]) : null,
  }));
}

/** The SELECT of every result row in order (the WHERE is built first: it numbers the first values). */
function selectSql(query: DatasetQuery): { sql: QuerySql; text: string } {
  if (query.columns.length === 0) throw new Error('A query needs at least one column');
  const sql = new QuerySql(query);
  const where = sql.where();
  const orderBy = sql.orderBy();
  const select = sql.selectList();
  return { sql, text: `SELECT ${select} FROM ${sql.from()}${where}${orderBy}` };
}

function countSql(query: DatasetQuery): { text: string; values: unknown[] } {
  const sql = new QuerySql(query);
  const where = sql.where();
  return { text: `SELECT count(*)::int AS total FROM ${sql.from()}${where}`, values: sql.parameters.values };
}

async function countRows(runner: SqlRunner, query: DatasetQuery): Promise<number> {
  const count = countSql(query);
  const [row] = await runner.query<{ total: number }>(count.text, count.values);
  return Number(row?.total ?? 0);
}

/** One page of the result (`page` from 0) and how many rows match in all. */
export async function datasetQueryPage(
  runner: SqlRunner,
  query: DatasetQuery,
  paging: { page: number; size: number },
): Promise<{ rows: DatasetQueryRow[]; totalOfRows: number }> {
  const { sql, text } = selectSql(query);
  const limit = sql.parameters.add(paging.size);
  const offset = sql.parameters.add(paging.page * paging.size);
  const [rows, totalOfRows] = await Promise.all([
    runner.query(`${text} LIMIT ${limit} OFFSET ${offset}`, sql.parameters.values),
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
  if (query.columns.length === 0) throw new Error('A query needs at least one column');
  const sql = new QuerySql(query);
  const conditions = query.filters.map((filter, index) => sql.condition(filter, index));
  if (position && 'afterRowId' in position)
    conditions.push(`t._row_id > ${sql.parameters.add(position.afterRowId)}::bigint`);
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  const orderBy = sql.orderBy();
  const select = sql.selectList();
  const limitParameter = sql.parameters.add(limit + 1);
  const offset = position && 'offset' in position ? ` OFFSET ${sql.parameters.add(position.offset)}` : '';
  const rows = await runner.query(
    `SELECT ${select}, t._row_id::text AS row_id FROM ${sql.from()}${where}${orderBy} LIMIT ${limitParameter}${offset}`,
    sql.parameters.values,
  );
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
  const { sql, text } = selectSql(query);
  await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  let isOpen = true;
  const close = async () => {
    if (!isOpen) return;
    isOpen = false;
    await runner.query('COMMIT');
  };
  try {
    const totalOfRows = await countRows(runner, query);
    await runner.query(`DECLARE dataset_query NO SCROLL CURSOR FOR ${text}`, sql.parameters.values);
    const size = Math.max(1, Math.floor(batchSize));
    let isDone = false;
    return {
      totalOfRows,
      async read() {
        if (isDone || !isOpen) return [];
        const rows = await runner.query(`FETCH ${size} FROM dataset_query`);
        if (rows.length < size) isDone = true;
        return rows.map((row) => rowOf(query, row));
      },
      close,
    };
  } catch (error) {
    isOpen = false;
    await runner.query('ROLLBACK');
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
        `EXISTS (SELECT 1 FROM ${datasetTable(dataset.datasetId)} WHERE ${fieldColumn(fieldId)} = $1::uuid)`,
    ),
  );
  if (checks.length === 0) return false;
  const [row] = await runner.query<{ found: boolean }>(`SELECT (${checks.join(' OR ')}) AS found`, [fileId]);
  return row?.found === true;
}
