/**
 * Large query exports (query-workbook.ts writes small ones on the API thread), in a writer thread
 * the API keeps between exports: for each export it is given, it reads the rows from a server-side
 * cursor on a connection of its own and writes the .xlsx with exceljs's streaming writer
 * (query-workbook.writer). The API's event loop keeps serving, and the rows' garbage stays in this
 * thread's small heap (in the API's heap, with its larger live set, V8 let a million rows' garbage
 * reach +250 MB of RSS before collecting). The file goes to the API thread in chunks, each
 * acknowledged before the next is sent, so the HTTP reader's pace holds back the zip, the sheet and
 * the cursor alike.
 */
import { Writable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import pg from 'pg';
import { DatasetQueryError, openDatasetQueryCursor } from '@pagewright/db/dataset-query';
import { pgSql, sessionTimeouts } from '@pagewright/db/sql-runner';
import type { FromWorkbookWorker, ToWorkbookWorker, WorkbookJob } from './query-workbook.protocol.js';
import { createQueryWorkbookWriter } from './query-workbook.writer.js';

const port = parentPort;
if (!port) throw new Error('query-workbook.worker runs as a worker thread');
const post = (message: FromWorkbookWorker, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

/** Bytes a chunk to the API thread gathers at most. */
const CHUNK_BYTES_MAX = 64 * 1024;

/** Chunks posted and waiting for the API thread's ack, by number. */
const unacknowledged = new Map<number, () => void>();
let nextChunk = 0;

/**
 * The file's way to the API thread. exceljs makes it in hundreds of pieces of a few bytes; while a
 * chunk waits for its ack, the pieces made meanwhile gather (up to CHUNK_BYTES_MAX) and go as the
 * next chunk: one message and one ack per chunk instead of per piece.
 */
function toApiThread(): Writable {
  return new Writable({
    highWaterMark: CHUNK_BYTES_MAX,
    writev(pieces, done) {
      const number = nextChunk++;
      unacknowledged.set(number, () => done());
      const bytes = new Uint8Array(pieces.reduce((size, piece) => size + (piece.chunk as Buffer).length, 0));
      let offset = 0;
      for (const { chunk } of pieces) {
        bytes.set(chunk as Buffer, offset);
        offset += (chunk as Buffer).length;
      }
      post({ type: 'chunk', chunk: number, data: bytes }, [bytes.buffer]);
    },
  });
}

async function exportRows(job: WorkbookJob): Promise<void> {
  const client = new pg.Client({
    connectionString: job.databaseUrl,
    application_name: 'pagewright-export',
    ...sessionTimeouts(job.databaseTimeouts),
  });
  await client.connect();
  try {
    const cursor = await openDatasetQueryCursor(pgSql(client), job.query, { batchSize: job.batchSize });
    post({ type: 'opened', totalOfRows: cursor.totalOfRows });
    const writer = createQueryWorkbookWriter({
      stream: toApiThread(),
      sheetName: job.sheetName,
      columns: job.columns,
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
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function runExport(job: WorkbookJob): Promise<void> {
  try {
    await exportRows(job);
    post({ type: 'done' });
  } catch (error) {
    post({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
      ...(error instanceof DatasetQueryError
        ? { filter: { index: error.filterIndex, problem: error.problem } }
        : {}),
    });
  }
}

port.on('message', (message: ToWorkbookWorker) => {
  if (message.type === 'export') {
    void runExport(message.job);
    return;
  }
  unacknowledged.get(message.chunk)?.();
  unacknowledged.delete(message.chunk);
});
