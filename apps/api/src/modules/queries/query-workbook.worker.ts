/**
 * A query's export, in a worker thread of its own: it reads the rows from a server-side cursor on
 * its own connection and writes the .xlsx with exceljs's streaming writer. The API's event loop
 * keeps serving, and the rows' garbage stays in this thread's small heap (in the API's heap, with
 * its larger live set, V8 let a million rows' garbage reach +250 MB of RSS before collecting).
 * The file goes to the API thread in chunks, each acknowledged before the next is taken, so the
 * HTTP reader's pace holds back the zip, the sheet and the cursor alike.
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import pg from 'pg';
import {
  DatasetQueryError,
  openDatasetQueryCursor,
  type DatasetQueryCell,
} from '@pagewright/db/dataset-query';
import { pgSql } from '@pagewright/db/sql-runner';
import type { ValueType } from '@pagewright/shared';
import type { FromWorkbookWorker, WorkbookAck, WorkbookWorkerData } from './query-workbook.protocol.js';

const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
/** Excel's limit on a sheet name, and the characters it refuses in one. */
const SHEET_NAME_MAX = 31;
const SHEET_NAME_REFUSED = /[[\]:*?/\\\p{Cc}]/gu;

const port = parentPort;
if (!port) throw new Error('query-workbook.worker runs as a worker thread');
const data = workerData as WorkbookWorkerData;
const post = (message: FromWorkbookWorker, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

/** A cell as Excel should hold it: numbers as numbers, date-times as dates (UTC), files by name. */
function cellValue(cell: DatasetQueryCell | undefined, type: ValueType): string | number | Date | null {
  const value = cell?.value ?? null;
  if (value === null) return null;
  if (type === 'NUMBER') return Number(value);
  if (type === 'DATETIME') return new Date(value);
  return value;
}

/** Chunks posted and waiting for the API thread's ack, by number. */
const unacknowledged = new Map<number, () => void>();
port.on('message', (message: WorkbookAck) => {
  unacknowledged.get(message.chunk)?.();
  unacknowledged.delete(message.chunk);
});
let nextChunk = 0;
const toApiThread = new Writable({
  write(chunk: Buffer, _encoding, done) {
    const number = nextChunk++;
    unacknowledged.set(number, () => done());
    const copy = new Uint8Array(chunk);
    post({ type: 'chunk', chunk: number, data: copy }, [copy.buffer]);
  },
});

/** The part of a (readable-stream 2) writable that says what it holds and when it drains. */
interface ZipEntryStream {
  _writableState?: { length?: number };
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/** XML the sheet may have waiting for the zip before the writing pauses: overlap, bounded. */
const SHEET_BUFFER_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Resolves once the zip entry the sheet's XML goes into holds less than SHEET_BUFFER_MAX_BYTES.
 * exceljs writes there without heeding its answer, so a sheet written faster than it is deflated
 * would pile up in that entry's buffer; waiting on it is the only backpressure there is. The entry
 * is archiver's readable-stream 2 PassThrough, which has no `writableLength`.
 */
function sheetEntryDrained(sheet: ExcelJS.Worksheet): Promise<void> {
  const internal = sheet as unknown as { stream?: { pipes?: unknown[] } };
  const entry = internal.stream?.pipes?.[0] as ZipEntryStream | undefined;
  const buffered = () => entry?._writableState?.length ?? 0;
  if (typeof entry?.once !== 'function' || buffered() < SHEET_BUFFER_MAX_BYTES) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      entry.off('drain', done);
      entry.off('close', done);
      resolve();
    };
    entry.once('drain', done);
    entry.once('close', done);
  });
}

async function exportRows(): Promise<void> {
  const { columns } = data;
  const client = new pg.Client({ connectionString: data.databaseUrl, application_name: 'pagewright-export' });
  await client.connect();
  try {
    const cursor = await openDatasetQueryCursor(pgSql(client), data.query, { batchSize: data.batchSize });
    post({ type: 'opened', totalOfRows: cursor.totalOfRows });
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: toApiThread,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(
      data.sheetName.replace(SHEET_NAME_REFUSED, '_').slice(0, SHEET_NAME_MAX).trim() || 'Query',
    );
    sheet.columns = columns.map((column) => ({ width: column.type === 'DATETIME' ? 20 : 18 }));
    // A style object per column, given to every cell (date-times need their number format; the
    // others are quicker written with an empty style than merged from their row and column).
    // exceljs's styles remember an object they have seen: each cell costs a lookup.
    const styles = columns.map((column) => (column.type === 'DATETIME' ? { numFmt: DATE_FORMAT } : {}));
    sheet.addRow(columns.map((column) => column.name)).commit();
    // The next batch is fetched while this one is written: the database and the writing overlap.
    for (let batch = await cursor.read(); batch.length > 0;) {
      const nextBatch = cursor.read();
      // Awaited below; a failure of this batch's writing must not leave it unhandled meanwhile.
      nextBatch.catch(() => undefined);
      for (const cells of batch) {
        const row = sheet.addRow(columns.map((column, index) => cellValue(cells[index], column.type)));
        row.eachCell((cell, number) => {
          cell.style = styles[number - 1] ?? {};
        });
        row.commit();
      }
      await sheetEntryDrained(sheet);
      batch = await nextBatch;
    }
    await cursor.close();
    sheet.commit();
    await workbook.commit();
    post({ type: 'done' });
  } finally {
    await client.end().catch(() => undefined);
  }
}

exportRows().catch((error: unknown) => {
  post({
    type: 'error',
    message: error instanceof Error ? error.message : String(error),
    ...(error instanceof DatasetQueryError
      ? { filter: { index: error.filterIndex, problem: error.problem } }
      : {}),
  });
});
