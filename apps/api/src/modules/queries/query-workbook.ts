import { PassThrough, Transform, type Readable } from 'node:stream';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import {
  DatasetQueryError,
  type DatabaseTimeouts,
  type DatasetQuery,
  type DatasetQueryRow,
} from '@pagewright/db';
import type {
  FromWorkbookWorker,
  ToWorkbookWorker,
  WorkbookColumn,
  WorkbookJob,
} from './query-workbook.protocol.js';
import { createQueryWorkbookWriter } from './query-workbook.writer.js';

export type { WorkbookColumn } from './query-workbook.protocol.js';

/** The writer thread's heap: small, so the garbage of the rows passing through is collected often. */
const WRITER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 48 };
/** Rows the writer thread fetches from its cursor at a time. */
const CURSOR_BATCH_ROWS = 1000;
/**
 * A writer thread left idle this long ends: a quiet API holds no thread nor its heap, while
 * exports that follow each other skip the thread's start (0.4–1 s: a new isolate loading exceljs
 * and pg), which was most of a 10,000-row export (bench:exports).
 */
const WRITER_IDLE_MS = 60_000;

/**
 * Results of at most this many rows are written on the API thread, from rows read at once on the
 * pool: a writer thread costs 0.4 s (build) to 0.6 s (tsx) to start before its first byte, which
 * is the whole of a small export, while 5,000 rows take the API thread tens of milliseconds to
 * write (docs/performance.md, bench:datasets (d)). Larger ones go to the writer thread.
 */
export const IN_PROCESS_EXPORT_MAX_ROWS = 5000;
/** Rows the API thread writes before it lets other requests run. */
const IN_PROCESS_BATCH_ROWS = 500;

/** Bytes gathered before they go to the reader as one chunk. */
const GATHERED_BYTES_MAX = 64 * 1024;

/**
 * The zip comes in hundreds of pieces of a few bytes (305 for a 10-row file), each of which would
 * be a chunk of its own on the wire, and passing them on at each turn of the event loop still made
 * 19 chunks of a 6 KB file. This gathers them into chunks of GATHERED_BYTES_MAX: a small file goes
 * in one piece when it is done, a larger one as it is made.
 */
function gatheringStream(): Transform {
  let pieces: Buffer[] = [];
  let size = 0;
  const passOn = (stream: Transform) => {
    if (size === 0) return;
    const chunk = Buffer.concat(pieces, size);
    pieces = [];
    size = 0;
    stream.push(chunk);
  };
  return new Transform({
    transform(piece: Buffer, _encoding, done) {
      pieces.push(piece);
      size += piece.length;
      if (size >= GATHERED_BYTES_MAX) passOn(this);
      done();
    },
    flush(done) {
      passOn(this);
      done();
    },
  });
}

/**
 * A small result's rows (read already, at most IN_PROCESS_EXPORT_MAX_ROWS) as an .xlsx written
 * on the API thread, a batch at a time with other requests served between batches. The stream
 * gets the bytes as exceljs zips them; an error destroys it (logged).
 */
export function writeWorkbookInProcess(options: {
  sheetName: string;
  columns: readonly WorkbookColumn[];
  rows: readonly DatasetQueryRow[];
  log: FastifyBaseLogger;
}): Readable {
  const output = gatheringStream();
  output.on('error', (error) => options.log.warn({ err: error }, 'query export stream ended early'));
  const write = async () => {
    const writer = createQueryWorkbookWriter({
      stream: output,
      sheetName: options.sheetName,
      columns: options.columns,
    });
    for (let first = 0; first < options.rows.length && !output.destroyed; first += IN_PROCESS_BATCH_ROWS) {
      if (first > 0) await new Promise((resolve) => setImmediate(resolve));
      await writer.addRows(options.rows.slice(first, first + IN_PROCESS_BATCH_ROWS));
    }
    if (!output.destroyed) await writer.finish();
  };
  write().catch((error: unknown) => {
    if (output.destroyed) return;
    options.log.error({ err: error }, 'query export failed');
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}

/**
 * Starts a writer thread: from the bundle (dist/query-workbook.worker.js, an entry of its own)
 * when built; from source (tsx, as in development and tests) through tsx's tsImport, since Node 20
 * does not hand a worker the parent's TypeScript loader.
 */
function startWriter(options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./query-workbook.worker.js', import.meta.url), options);
  const file = JSON.stringify(new URL('./query-workbook.worker.ts', import.meta.url).href);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then(({ tsImport }) => tsImport(${file}, ${file}))`, {
    ...options,
    eval: true,
  });
}

/**
 * The writer threads of one API: a thread writes one export at a time and, once it has written it
 * whole, waits for the next (unreferenced: it never keeps the process alive) until WRITER_IDLE_MS
 * pass. A thread whose export failed or lost its reader is ended instead, and with it its cursor
 * and connection. The export slots bound how many threads work at once, and so how many there are.
 */
export function createWorkbookWriterPool() {
  const idle = new Set<{ writer: Worker; timer: NodeJS.Timeout }>();
  return {
    take(): Worker {
      for (const waiting of idle) {
        idle.delete(waiting);
        clearTimeout(waiting.timer);
        waiting.writer.removeAllListeners('exit');
        waiting.writer.ref();
        return waiting.writer;
      }
      return startWriter({ resourceLimits: WRITER_LIMITS });
    },
    giveBack(writer: Worker) {
      for (const event of ['message', 'error', 'exit']) writer.removeAllListeners(event);
      writer.unref();
      const waiting = {
        writer,
        timer: setTimeout(() => {
          idle.delete(waiting);
          void writer.terminate().catch(() => undefined);
        }, WRITER_IDLE_MS).unref(),
      };
      // A thread that dies while it waits leaves the pool.
      writer.once('exit', () => {
        idle.delete(waiting);
        clearTimeout(waiting.timer);
      });
      idle.add(waiting);
    },
    /** Threads waiting for an export now. */
    get idleCount() {
      return idle.size;
    },
  };
}
export type WorkbookWriterPool = ReturnType<typeof createWorkbookWriterPool>;

/**
 * A (large) query's every row as an .xlsx, written while it is read by a writer thread of the pool
 * (query-workbook.worker) on a connection of its own. Resolves once the thread's cursor is open,
 * with the row count of its snapshot; a filter the SQL refuses rejects with its DatasetQueryError
 * before any byte is sent. The stream ends when the workbook is done, and the thread goes back to
 * the pool; a reader that goes away ends the thread, which ends its cursor and its connection.
 */
export function openWorkbookExport(options: {
  sheetName: string;
  columns: readonly WorkbookColumn[];
  query: DatasetQuery;
  database: { url: string; timeouts: DatabaseTimeouts };
  writers: WorkbookWriterPool;
  log: FastifyBaseLogger;
}): Promise<{ totalOfRows: number; stream: Readable }> {
  const { log, writers } = options;
  const job: WorkbookJob = {
    sheetName: options.sheetName,
    columns: [...options.columns],
    query: options.query,
    databaseUrl: options.database.url,
    databaseTimeouts: options.database.timeouts,
    batchSize: CURSOR_BATCH_ROWS,
  };
  const writer = writers.take();
  const send = (message: ToWorkbookWorker) => writer.postMessage(message);
  const output = new PassThrough();
  // A reader that leaves mid-way makes late writes fail: logged, never thrown at the process.
  output.on('error', (error) => log.warn({ err: error }, 'query export stream ended early'));
  /** Whether the thread is done with this export: ended, or back in the pool. */
  let isReleased = false;
  const stop = () => {
    if (isReleased) return;
    isReleased = true;
    void writer.terminate().catch(() => undefined);
  };
  output.on('close', stop);

  return new Promise((resolve, reject) => {
    let isOpened = false;
    const fail = (error: Error) => {
      stop();
      if (!isOpened) reject(error);
      else if (!output.destroyed) {
        log.error({ err: error }, 'query export failed');
        output.destroy(error);
      }
    };
    writer.on('message', (message: FromWorkbookWorker) => {
      switch (message.type) {
        case 'opened':
          isOpened = true;
          resolve({ totalOfRows: message.totalOfRows, stream: output });
          return;
        case 'chunk': {
          if (output.destroyed) return;
          const ack = () => send({ type: 'ack', chunk: message.chunk });
          const bytes = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
          if (output.write(bytes)) ack();
          else output.once('drain', ack);
          return;
        }
        case 'done':
          if (!isReleased) {
            isReleased = true;
            writers.giveBack(writer);
          }
          output.end();
          return;
        case 'error':
          fail(
            message.filter
              ? new DatasetQueryError(message.filter.index, message.filter.problem)
              : new Error(message.message),
          );
          return;
      }
    });
    writer.on('error', fail);
    writer.on('exit', (code) => {
      if (!isReleased) fail(new Error(`the export's writer thread stopped (exit ${code})`));
    });
    send({ type: 'export', job });
  });
}
