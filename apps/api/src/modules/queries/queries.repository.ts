import {
  Prisma,
  createFileStorage,
  datasetHasRows,
  datasetQueryPage,
  datasetQueryPageAt,
  datasetsHoldFile,
  pgSql,
  type DatasetQuery,
  type DatasetQueryPosition,
  type DatasetQueryRow,
  type FileStorage,
  type PrismaClient,
} from '@pagewright/db';
import type pg from 'pg';
import type { DatasetType, OrderType, QueryType, ValueType } from '@pagewright/shared';

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

/** One of the caller's datasets with its fields in order (the wizard's steps, results, exports). */
export interface OwnedDatasetRow {
  id: string;
  name: string;
  description: string;
  type: DatasetType;
  fields: { id: string; name: string; type: ValueType; sequence: number }[];
}

/**
 * The caller's dataset and its fields in one statement on node-postgres: every result page and
 * export reads it first, and through Prisma (two statements and its client's work) it was 3–4 ms
 * of a 10-row export's ~20 (bench:exports). Named, so each pooled connection plans it once.
 */
const OWNED_DATASET = {
  name: 'query-owned-dataset',
  text: `SELECT d.id, d.name, d.description, d.type,
                COALESCE((SELECT json_agg(json_build_object('id', f.id, 'name', f.name, 'type', f.type,
                                                            'sequence', f.sequence)
                                          ORDER BY f.sequence, f.id)
                            FROM "DatasetField" f WHERE f."datasetId" = d.id), '[]') AS fields
           FROM "Dataset" d
          WHERE d.id = $1::uuid AND d."userId" = $2::uuid`,
};

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
    async findDataset(userId: string, datasetId: string): Promise<OwnedDatasetRow | null> {
      const { rows } = await pool.query<OwnedDatasetRow>({ ...OWNED_DATASET, values: [datasetId, userId] });
      return rows[0] ?? null;
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
     * The whole result when it has at most `maxRows` rows, null when it has more: one statement
     * (its own snapshot) reading up to one row past the limit, on the pool.
     */
    async rowsIfAtMost(query: DatasetQuery, maxRows: number): Promise<DatasetQueryRow[] | null> {
      const first = await datasetQueryPageAt(pgSql(pool), query, null, maxRows);
      return first.hasMore ? null : first.rows.map((row) => row.cells);
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
