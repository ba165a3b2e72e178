import { PassThrough, type Readable } from 'node:stream';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { DatasetQueryError, type DatasetQuery } from '@pagewright/db';
import type {
  FromWorkbookWorker,
  WorkbookAck,
  WorkbookColumn,
  WorkbookWorkerData,
} from './query-workbook.protocol.js';

export type { WorkbookColumn } from './query-workbook.protocol.js';

/** The writer thread's heap: small, so the garbage of the rows passing through is collected often. */
const WRITER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 48 };
/** Rows the writer thread fetches from its cursor at a time. */
const CURSOR_BATCH_ROWS = 1000;

/**
 * Starts the writer thread: from the bundle (dist/query-workbook.worker.js, an entry of its own)
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
 * A query's every row as an .xlsx, written while it is read by a writer thread
 * (query-workbook.worker) on a connection of its own. Resolves once the thread's cursor is open,
 * with the row count of its snapshot; a filter the SQL refuses rejects with its DatasetQueryError
 * before any byte is sent. The stream ends when the workbook is done; a reader that goes away stops
 * the thread, which ends its cursor and its connection.
 */
export function openWorkbookExport(options: {
  sheetName: string;
  columns: readonly WorkbookColumn[];
  query: DatasetQuery;
  databaseUrl: string;
  log: FastifyBaseLogger;
}): Promise<{ totalOfRows: number; stream: Readable }> {
  const { log } = options;
  const workerData: WorkbookWorkerData = {
    sheetName: options.sheetName,
    columns: [...options.columns],
    query: options.query,
    databaseUrl: options.databaseUrl,
    batchSize: CURSOR_BATCH_ROWS,
  };
  const writer = startWriter({ workerData, resourceLimits: WRITER_LIMITS });
  const output = new PassThrough();
  // A reader that leaves mid-way makes late writes fail: logged, never thrown at the process.
  output.on('error', (error) => log.warn({ err: error }, 'query export stream ended early'));
  let isStopped = false;
  const stop = () => {
    if (isStopped) return;
    isStopped = true;
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
          const ack = () => writer.postMessage({ type: 'ack', chunk: message.chunk } satisfies WorkbookAck);
          const bytes = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
          if (output.write(bytes)) ack();
          else output.once('drain', ack);
          return;
        }
        case 'done':
          output.end();
          stop();
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
      if (!isStopped) fail(new Error(`the export's writer thread stopped (exit ${code})`));
    });
  });
}
