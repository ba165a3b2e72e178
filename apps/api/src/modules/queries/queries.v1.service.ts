import { Readable } from 'node:stream';
import { isSortedDatasetQuery, type DatasetQueryPosition, type DatasetQueryRow } from '@pagewright/db';
import { MESSAGES, type V1RowsPage, type V1RowsQuery } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { csvLine } from '../../lib/csv.js';
import type { QueryResultService, RunnableQuery } from './query-results.service.js';

/** The largest `_row_id` (a bigint): a cursor past it is refused, never sent to PostgreSQL. */
const MAX_ROW_ID = 2n ** 63n - 1n;
/** Rows a CSV reads per statement while it streams. */
const CSV_BATCH_ROWS = 1000;

type Page = Awaited<ReturnType<QueryResultService['pageAt']>>;

const isSorted = (runnable: RunnableQuery) => isSortedDatasetQuery(runnable.query);

/**
 * The public API's cursor, opaque to callers (base64url JSON): the last row's `_row_id` for rows in
 * row order (`a`), an offset for a sorted query's result (`o`).
 */
function encodeCursor(position: Exclude<DatasetQueryPosition, null>): string {
  const json = 'afterRowId' in position ? { a: position.afterRowId } : { o: position.offset };
  return Buffer.from(JSON.stringify(json)).toString('base64url');
}

function decodeCursor(runnable: RunnableQuery, cursor: string | undefined): DatasetQueryPosition {
  if (cursor === undefined || cursor === '') return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = null;
  }
  const sorted = isSorted(runnable);
  if (typeof decoded === 'object' && decoded !== null) {
    const { a, o } = decoded as { a?: unknown; o?: unknown };
    if (!sorted && typeof a === 'string' && /^\d{1,19}$/u.test(a) && BigInt(a) <= MAX_ROW_ID)
      return { afterRowId: a };
    if (sorted && typeof o === 'number' && Number.isSafeInteger(o) && o >= 0) return { offset: o };
  }
  throw AppError.validation(MESSAGES['publicapi.bad.cursor'], 'cursor');
}

/** Where the page after this one starts. */
function nextPosition(
  position: DatasetQueryPosition,
  page: Page,
): Exclude<DatasetQueryPosition, null> | null {
  const last = page.rows.at(-1);
  if (!page.hasMore || !last) return null;
  if (position && 'offset' in position) return { offset: position.offset + page.rows.length };
  return { afterRowId: last.rowId };
}

function rowObject(runnable: RunnableQuery, cells: DatasetQueryRow): Record<string, string | null> {
  return Object.fromEntries(
    runnable.columns.map((column, index) => [column.name, cells[index]?.value ?? null]),
  );
}

/**
 * The public API's row reads (issue 26): a dataset's rows and a saved query's results, paged by an
 * opaque cursor as JSON, or streamed as CSV from the cursor on. Both read through the query results
 * service, as the screens' result pages do; every dataset and query is the caller's.
 */
export function createQueryV1Service(results: QueryResultService) {
  async function jsonPage(runnable: RunnableQuery, request: V1RowsQuery): Promise<V1RowsPage> {
    const columns = runnable.columns.map((column) => ({ name: column.name, type: column.type }));
    if (runnable.columns.length === 0) return { columns, rows: [], nextCursor: null };
    const position = decodeCursor(runnable, request.cursor);
    const page = await results.pageAt(runnable, position, request.limit);
    const next = nextPosition(isSorted(runnable) ? (position ?? { offset: 0 }) : position, page);
    return {
      columns,
      rows: page.rows.map((row) => rowObject(runnable, row.cells)),
      nextCursor: next ? encodeCursor(next) : null,
    };
  }

  /** Every row from the cursor on; the first batch is read before the answer starts (a bad cursor is a 400). */
  async function csv(
    runnable: RunnableQuery,
    request: V1RowsQuery,
  ): Promise<{ fileName: string; stream: Readable }> {
    const header = csvLine(runnable.columns.map((column) => column.name));
    const fileName = `${runnable.name}.csv`;
    if (runnable.columns.length === 0) return { fileName, stream: Readable.from([header]) };
    let position: DatasetQueryPosition = decodeCursor(runnable, request.cursor);
    if (isSorted(runnable)) position ??= { offset: 0 };
    let page = await results.pageAt(runnable, position, CSV_BATCH_ROWS);
    async function* lines() {
      yield header;
      for (;;) {
        yield page.rows.map((row) => csvLine(row.cells.map((cell) => cell.value))).join('');
        const next = nextPosition(position, page);
        if (!next) return;
        position = next;
        page = await results.pageAt(runnable, position, CSV_BATCH_ROWS);
      }
    }
    return { fileName, stream: Readable.from(lines()) };
  }

  async function read(runnable: RunnableQuery, request: V1RowsQuery) {
    return request.format === 'csv'
      ? { format: 'csv' as const, ...(await csv(runnable, request)) }
      : { format: 'json' as const, page: await jsonPage(runnable, request) };
  }

  return {
    async datasetRows(userId: string, datasetId: string, request: V1RowsQuery) {
      return read(await results.wholeDataset(userId, datasetId), request);
    },
    async queryResults(userId: string, queryId: string, request: V1RowsQuery) {
      return read(await results.savedQuery(userId, queryId), request);
    },
  };
}
export type QueryV1Service = ReturnType<typeof createQueryV1Service>;
