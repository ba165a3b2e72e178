import {
  DatasetQueryError,
  Prisma,
  createFileStorage,
  datasetHasRows,
  datasetQueryPage,
  datasetQueryPageAt,
  datasetsHoldFile,
  openDatasetQueryCursor,
  pgSql,
  type DatasetQuery,
  type DatasetQueryPosition,
  type DatasetQueryRow,
  type FileStorage,
  type PrismaClient,
} from '@pagewright/db';
import type pg from 'pg';
import type { OrderType, QueryType } from '@pagewright/shared';

/** What a query's save writes (ids made by the wizard, kept across edits). */
export interface QueryToSave {
  id: string;
  isNew: boolean;
  /** Follows the dataset: FENGINE over an engine dataset. */
  type: QueryType;
  name: string;
  description: string;
  timeZone: string;
  datasetId: string;
  fields: {
    id: string;
    datasetFieldId: string;
    orderType: OrderType | null;
    orderSequence: number | null;
  }[];
  filters: {
    id: string;
    datasetFieldId: string;
    operatorId: number;
    operatorType: string;
    inputValue: string | null;
  }[];
}

/** A unique index refused the write: two saves took the same name at once. */
export const isNameConflict = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

const datasetSelect = {
  id: true,
  name: true,
  description: true,
  type: true,
  fields: {
    orderBy: { sequence: 'asc' },
    select: { id: true, name: true, type: true, sequence: true },
  },
} as const satisfies Prisma.DatasetSelect;

const querySelect = {
  id: true,
  name: true,
  description: true,
  type: true,
  timeZone: true,
  datasetId: true,
  updatedAt: true,
  dataset: { select: { name: true } },
} as const satisfies Prisma.QuerySelect;

/** Queries in PostgreSQL (Prisma) and their results (dataset SQL on the pool). */
export function createQueryRepository(
  db: PrismaClient,
  pool: pg.Pool,
  files: FileStorage = createFileStorage(db),
) {
  return {
    list(userId: string) {
      return db.query.findMany({ where: { userId }, orderBy: { createdAt: 'desc' }, select: querySelect });
    },

    findOwned(userId: string, id: string) {
      return db.query.findFirst({
        where: { id, userId },
        select: {
          ...querySelect,
          fields: {
            orderBy: { sequence: 'asc' },
            select: { id: true, datasetFieldId: true, orderType: true, orderSequence: true },
          },
          filters: {
            orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
            select: { id: true, datasetFieldId: true, operatorId: true, inputValue: true },
          },
        },
      });
    },

    async isNameTaken(userId: string, name: string, exceptId?: string): Promise<boolean> {
      const found = await db.query.findFirst({
        where: { userId, name, ...(exceptId ? { id: { not: exceptId } } : {}) },
        select: { id: true },
      });
      return found !== null;
    },

    /** The caller's dataset with its fields in order, or null. */
    findDataset(userId: string, datasetId: string) {
      return db.dataset.findFirst({ where: { id: datasetId, userId }, select: datasetSelect });
    },

    listDatasets(userId: string) {
      return db.dataset.findMany({
        where: { userId },
        orderBy: { createdAt: 'desc' },
        select: { id: true, name: true, description: true, type: true },
      });
    },

    hasRows(datasetId: string): Promise<boolean> {
      return datasetHasRows(pgSql(pool), datasetId);
    },

    /**
     * The query, its fields and its filters in one transaction: the old ones go and the draft's
     * come, so a failed save leaves the saved query as it was. False when the query went meanwhile.
     */
    async save(userId: string, query: QueryToSave): Promise<boolean> {
      return db.$transaction(async (tx) => {
        if (query.isNew) {
          await tx.query.create({
            data: {
              id: query.id,
              userId,
              type: query.type,
              name: query.name,
              description: query.description,
              timeZone: query.timeZone,
              datasetId: query.datasetId,
            },
          });
        } else {
          // A saved query's name and description change by rename only (a draft may be older).
          const updated = await tx.query.updateMany({
            where: { id: query.id, userId },
            data: { datasetId: query.datasetId, type: query.type },
          });
          if (updated.count !== 1) return false;
          await tx.queryField.deleteMany({ where: { queryId: query.id } });
          await tx.queryFilter.deleteMany({ where: { queryId: query.id } });
        }
        await tx.queryField.createMany({
          data: query.fields.map((field, sequence) => ({ ...field, queryId: query.id, sequence })),
        });
        // Filters have no sequence: a millisecond apart, their creation time keeps their order.
        const savedAt = Date.now();
        await tx.queryFilter.createMany({
          data: query.filters.map((filter, index) => ({
            ...filter,
            queryId: query.id,
            createdAt: new Date(savedAt + index),
          })),
        });
        return true;
      });
    },

    async delete(userId: string, id: string): Promise<boolean> {
      return (await db.query.deleteMany({ where: { id, userId } })).count === 1;
    },

    async rename(userId: string, id: string, name: string, description: string): Promise<boolean> {
      const updated = await db.query.updateMany({ where: { id, userId }, data: { name, description } });
      return updated.count === 1;
    },

    page(query: DatasetQuery, paging: { page: number; size: number }) {
      return datasetQueryPage(pgSql(pool), query, paging);
    },

    /** A page of the public API (issue 26): after a row or at an offset, each row with its id. */
    pageAt(query: DatasetQuery, position: DatasetQueryPosition, limit: number) {
      return datasetQueryPageAt(pgSql(pool), query, position, limit);
    },

    /**
     * The whole result when it has at most `maxRows` rows (counted and read in one snapshot, on a
     * pooled connection held only that long); null when it has more.
     */
    async rowsIfAtMost(query: DatasetQuery, maxRows: number): Promise<DatasetQueryRow[] | null> {
      const client = await pool.connect();
      let isBroken = false;
      try {
        // The count comes first; the FETCH of them all only runs when the count allows it.
        const cursor = await openDatasetQueryCursor(pgSql(client), query, { batchSize: maxRows + 1 });
        try {
          return cursor.totalOfRows <= maxRows ? await cursor.read() : null;
        } finally {
          await cursor.close();
        }
      } catch (error) {
        isBroken = !(error instanceof DatasetQueryError);
        throw error;
      } finally {
        client.release(isBroken);
      }
    },

    /** The caller's stored file, if a row of one of the caller's datasets holds it. */
    async datasetFile(userId: string, fileId: string) {
      const datasets = await db.dataset.findMany({
        where: { userId, fields: { some: { type: 'FILE' } } },
        select: { id: true, fields: { where: { type: 'FILE' }, select: { id: true } } },
      });
      const holding = datasets.map((dataset) => ({
        datasetId: dataset.id,
        fileFieldIds: dataset.fields.map((field) => field.id),
      }));
      if (!(await datasetsHoldFile(pgSql(pool), holding, fileId))) return null;
      return files.get(fileId, userId);
    },
  };
}
export type QueryRepository = ReturnType<typeof createQueryRepository>;
