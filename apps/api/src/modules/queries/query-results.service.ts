import { finished, type Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import {
  DatasetQueryError,
  type DatabaseTimeouts,
  type DatasetQuery,
  type DatasetQueryPosition,
  type DatasetQueryRow,
} from '@pagewright/db';
import { MESSAGES, formatMessage, type QueryResult } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { endIfStalled } from '../../lib/stall-guard.js';
import type { QueryDraftStore } from './query-draft.store.js';
import {
  byId,
  datasetFieldDto,
  datasetQueryOf,
  type DatasetFieldRow,
  type QueryShape,
} from './query-dtos.js';
import type { QueryRepository } from './queries.repository.js';
import type { ExportSlots } from './export-slots.js';
import {
  IN_PROCESS_EXPORT_MAX_ROWS,
  createWorkbookWriterPool,
  openWorkbookExport,
  writeWorkbookInProcess,
} from './query-workbook.js';

/** A query ready to run: its name (the export's file name), its columns and its SQL side. */
export interface RunnableQuery {
  name: string;
  columns: DatasetFieldRow[];
  query: DatasetQuery;
}

/** A filter the SQL side refuses (a dataset field changed type since), as the filter row shows it. */
async function refusingBadFilters<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    if (error instanceof DatasetQueryError)
      throw AppError.validation(error.message, `filters.${error.filterIndex}.${error.problem.field}`);
    throw error;
  });
}

function resultOf(
  columns: readonly DatasetFieldRow[],
  page: { rows: DatasetQueryRow[]; totalOfRows: number },
  paging: { page: number; size: number },
): QueryResult {
  return {
    columns: columns.map(datasetFieldDto),
    rows: page.rows.map((row) => ({
      fields: columns.map((column, index) => ({
        datasetFieldId: column.id,
        name: column.name,
        type: column.type,
        value: row[index]?.value ?? null,
        fileId: row[index]?.fileId ?? null,
      })),
    })),
    totalOfRows: page.totalOfRows,
    page: paging.page,
    size: paging.size,
  };
}

/** Results of queries: step 4's pages, a dataset's rows, the xlsx export, a FILE cell's file. */
export function createQueryResultService(deps: {
  queries: QueryRepository;
  drafts: QueryDraftStore;
  /** The export's writer thread reads rows on a connection of its own, with these limits. */
  database: { url: string; timeouts: DatabaseTimeouts };
  /** The exports this process and one user run at once (QUERY_EXPORTS_MAX_RUNNING, _PER_USER). */
  exportSlots: ExportSlots;
  exportLimits: { maxPerUser: number; stallMs: number };
  log: FastifyBaseLogger;
}) {
  const { queries, drafts, database, exportSlots, exportLimits, log } = deps;
  const writers = createWorkbookWriterPool();

  /**
   * A small result (IN_PROCESS_EXPORT_MAX_ROWS at most) is read on the pool and written on this
   * thread: its first byte follows the read. A larger one is read and written by a writer thread.
   */
  async function openExport({ name, columns, query }: RunnableQuery) {
    const rows = await queries.rowsIfAtMost(query, IN_PROCESS_EXPORT_MAX_ROWS);
    if (rows)
      return {
        totalOfRows: rows.length,
        stream: writeWorkbookInProcess({ sheetName: name, columns, rows, log }),
      };
    return openWorkbookExport({ sheetName: name, columns, query, database, writers, log });
  }

  async function ownedDataset(userId: string, datasetId: string) {
    const dataset = await queries.findDataset(userId, datasetId);
    if (!dataset) throw AppError.notFound(MESSAGES['dataset.not.found']);
    return dataset;
  }

  async function runnable(
    userId: string,
    name: string,
    datasetId: string | null,
    shape: QueryShape,
  ): Promise<RunnableQuery> {
    if (!datasetId) throw AppError.validation(MESSAGES['query.dataset.required'], 'datasetId');
    if (shape.fields.length === 0) throw AppError.validation(MESSAGES['query.field.required'], 'fields');
    const dataset = await ownedDataset(userId, datasetId);
    const query = datasetQueryOf(datasetId, shape, dataset.fields);
    const fields = byId(dataset.fields);
    const columns = shape.fields.flatMap((field) => fields.get(field.datasetFieldId) ?? []);
    return { name, columns, query };
  }

  /** The caller's draft, or (with an id) the caller's saved query. */
  async function queryOf(userId: string, queryId: string | undefined): Promise<RunnableQuery> {
    if (!queryId) {
      const draft = await drafts.get(userId);
      return runnable(userId, draft.name, draft.datasetId, draft);
    }
    const saved = await queries.findOwned(userId, queryId);
    if (!saved) throw AppError.notFound(MESSAGES['query.not.found']);
    return runnable(userId, saved.name, saved.datasetId, {
      timeZone: saved.timeZone,
      fields: saved.fields.map((field) => ({ ...field, queryFieldId: field.id })),
      filters: saved.filters.map((filter) => ({ ...filter, queryFilterId: filter.id })),
    });
  }

  /** Every row of one of the caller's datasets as stored (every field, in row order). */
  async function wholeDataset(userId: string, datasetId: string): Promise<RunnableQuery> {
    const dataset = await ownedDataset(userId, datasetId);
    return {
      name: dataset.name,
      columns: dataset.fields,
      query: {
        datasetId,
        timeZone: 'UTC',
        columns: dataset.fields.map((field) => ({ id: field.id, type: field.type })),
        filters: [],
      },
    };
  }

  return {
    /** A saved query of the caller, ready to run (the public API's results, issue 26). */
    savedQuery: (userId: string, queryId: string) => queryOf(userId, queryId),
    /** One of the caller's datasets as a query of every field (the public API's rows, issue 26). */
    wholeDataset,
    /** Rows of a runnable query from a position; a filter the SQL side refuses answers 400. */
    pageAt: (runnable: RunnableQuery, position: DatasetQueryPosition, limit: number) =>
      refusingBadFilters(queries.pageAt(runnable.query, position, limit)),

    /** Step 4: a page of the draft's result (`page` from 0). */
    async result(userId: string, paging: { page: number; size: number }): Promise<QueryResult> {
      const { columns, query } = await queryOf(userId, undefined);
      return resultOf(columns, await refusingBadFilters(queries.page(query, paging)), paging);
    },

    /** A page of a dataset's rows as they are (every field, in the order rows came): the draft's dataset by default. */
    async datasetRows(
      userId: string,
      request: { datasetId?: string | undefined; page: number; size: number },
    ): Promise<QueryResult> {
      const datasetId = request.datasetId ?? (await drafts.get(userId)).datasetId;
      if (!datasetId) throw AppError.validation(MESSAGES['query.dataset.required'], 'datasetId');
      const dataset = await ownedDataset(userId, datasetId);
      const paging = { page: request.page, size: request.size };
      if (dataset.fields.length === 0) return resultOf([], { rows: [], totalOfRows: 0 }, paging);
      const query: DatasetQuery = {
        datasetId,
        timeZone: 'UTC',
        columns: dataset.fields.map((field) => ({ id: field.id, type: field.type })),
        filters: [],
      };
      return resultOf(dataset.fields, await queries.page(query, paging), paging);
    },

    /**
     * Every row of the draft's result (or a saved query's) as `{name}.xlsx`, streamed. Holds one of
     * the process's export slots until the stream ends, fails or loses its reader; with none free,
     * 503 'Too many exports are running…'.
     */
    async export(
      userId: string,
      queryId: string | undefined,
    ): Promise<{ fileName: string; totalOfRows: number; stream: Readable }> {
      const slot = exportSlots.take(userId);
      if ('refusal' in slot)
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          slot.refusal === 'process'
            ? MESSAGES['query.export.busy']
            : formatMessage('query.export.busy.user', { max: exportLimits.maxPerUser }),
        );
      const { giveBack } = slot;
      try {
        const runnable = await queryOf(userId, queryId);
        const exported = await refusingBadFilters(openExport(runnable));
        // A reader that stops reading ends the export: its slot, connection and thread come back.
        const stream = endIfStalled(exported.stream, exportLimits.stallMs, () => {
          log.warn({ userId, queryId }, 'query export ended: no progress');
          return new Error('the export made no progress');
        });
        finished(stream, giveBack);
        return { fileName: `${runnable.name}.xlsx`, totalOfRows: exported.totalOfRows, stream };
      } catch (error) {
        giveBack();
        throw error;
      }
    },

    /** A FILE cell's file: the caller's, and held by a row of one of the caller's datasets. */
    async file(userId: string, fileId: string): Promise<{ filename: string; fileContent: string }> {
      const file = await queries.datasetFile(userId, fileId);
      if (!file) throw AppError.notFound(MESSAGES['query.file.not.found']);
      return { filename: file.name, fileContent: file.content.toString('base64') };
    },
  };
}
export type QueryResultService = ReturnType<typeof createQueryResultService>;
