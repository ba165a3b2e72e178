/**
 * A large query's export (query-workbook.ts writes small ones on the API thread), in a worker
 * thread of its own: it reads the rows from a server-side cursor on its own connection and writes
 * the .xlsx with exceljs's streaming writer (query-workbook.writer). The API's event loop
 * keeps serving, and the rows' garbage stays in this thread's small heap (in the API's heap, with
 * its larger live set, V8 let a million rows' garbage reach +250 MB of RSS before collecting).
 * The file goes to the API thread in chunks, each acknowledged before the next is taken, so the
 * HTTP reader's pace holds back the zip, the sheet and the cursor alike.
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { DatasetQueryError, openDatasetQueryCursor } from '@pagewright/db/dataset-query';
import { pgSql, sessionTimeouts } from '@pagewright/db/sql-runner';
import type { FromWorkbookWorker, WorkbookAck, WorkbookWorkerData } from './query-workbook.protocol.js';
import { createQueryWorkbookWriter } from './query-workbook.writer.js';

const port = parentPort;
if (!port) throw new Error('query-workbook.worker runs as a worker thread');
const data = workerData as WorkbookWorkerData;
const post = (message: FromWorkbookWorker, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

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

async function exportRows(): Promise<void> {
  const client = new pg.Client({
    connectionString: data.databaseUrl,
    application_name: 'pagewright-export',
    ...sessionTimeouts(data.databaseTimeouts),
  });
  await client.connect();
  try {
    const cursor = await openDatasetQueryCursor(pgSql(client), data.query, { batchSize: data.batchSize });
    post({ type: 'opened', totalOfRows: cursor.totalOfRows });
    const writer = createQueryWorkbookWriter({
      stream: toApiThread,
      sheetName: data.sheetName,
      columns: data.columns,
    });
    // The next batch is fetched while this one is written: the database and the writing overlap.
    for (let batch = await cursor.read(); batch.length > 0;) {
      const nextBatch = cursor.read();
      // Awaited below; a failure of this batch's writing must not leave it unhandled meanwhile.
      nextBatch.catch(() => undefined);
      await writer.addRows(batch);
      batch = await nextBatch;
    }
    await cursor.close();
    await writer.finish();
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
