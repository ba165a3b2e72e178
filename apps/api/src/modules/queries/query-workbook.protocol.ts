import type { DatasetQuery, FilterProblem } from '@pagewright/db/dataset-query';
import type { DatabaseTimeouts } from '@pagewright/db/sql-runner';
import type { ValueType } from '@pagewright/shared';

/** What a spreadsheet column needs of a query column. */
export interface WorkbookColumn {
  name: string;
  type: ValueType;
}

/** One export, as a writer thread is given it. */
export interface WorkbookJob {
  sheetName: string;
  columns: readonly WorkbookColumn[];
  query: DatasetQuery;
  /** The thread reads the rows on a connection of its own, with the API's session limits. */
  databaseUrl: string;
  databaseTimeouts: DatabaseTimeouts;
  /** Rows fetched from the cursor at a time. */
  batchSize: number;
}

/**
 * API thread → writer thread: an export to write (a thread writes one at a time, and is given
 * another only once it said 'done'), or an ack: the chunk with this number was taken, send more.
 */
export type ToWorkbookWorker = { type: 'export'; job: WorkbookJob } | { type: 'ack'; chunk: number };

/** Writer thread → API thread. */
export type FromWorkbookWorker =
  /** The cursor is open: the rows it will give, counted in its snapshot. */
  | { type: 'opened'; totalOfRows: number }
  | { type: 'chunk'; chunk: number; data: Uint8Array }
  | { type: 'done' }
  /** `filter` when the query's SQL refused a filter (before any row was written). */
  | { type: 'error'; message: string; filter?: { index: number; problem: FilterProblem } };
