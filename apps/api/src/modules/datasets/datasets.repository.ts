import {
  Prisma,
  changeDatasetTable,
  countDatasetRows,
  createDatasetTable,
  datasetHasRows,
  dropDatasetTable,
  pgSql,
  prismaSql,
  type DatasetTableField,
  type PrismaClient,
  type ValueType,
} from '@pagewright/db';
import type pg from 'pg';
import { isEngineDatasetType, type DatasetType } from '@pagewright/shared';

/** What a dataset's save writes: its fields (ids made by the service) and their sources. */
export interface DatasetToSave {
  id: string;
  isNew: boolean;
  type: DatasetType;
  name: string;
  description: string;
  fields: { id: string; name: string; type: ValueType; isKey: boolean; sequence: number }[];
  maps: { datasetFieldId: string; actionId: string | null; tableColumnId: string | null }[];
}

/** Actions whose value can fill a field, of the caller's extractors (not insertors or navigators). */
const VALUE_ACTION_TYPES = [
  'GET_TEXT',
  'GET_NUMBER',
  'GET_DATE',
  'GET_FILE',
  'GET_IMAGE',
  'SCRIPT',
  // The text of a dialog the page showed (an alert's "Item has been updated.").
  'ANSWER_DIALOG',
] as const;

/**
 * How long a save (or a delete) may take its dataset's table: `timeoutMs` for the transaction and
 * each statement in it (a type change rewrites every row), `lockTimeoutMs` to wait for the table
 * while an export or a run reads it.
 */
export interface DatasetTableLimits {
  timeoutMs: number;
  lockTimeoutMs: number;
}

/** Prisma's own bound on the transaction stays above the statements' so PostgreSQL ends it first. */
const TRANSACTION_MARGIN_MS = 30_000;

/**
 * Why a change of a dataset's table failed, when it is one a caller can be told about: the table
 * was in use past the lock timeout (SQLSTATE 55P03), or the change ran out of time (57014, or
 * Prisma's transaction timeout P2028). Either way the transaction was rolled back: nothing changed.
 */
export function tableChangeFailure(error: unknown): 'IN_USE' | 'TOO_LONG' | null {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return null;
  if (error.code === 'P2028') return 'TOO_LONG';
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  if (cause?.originalCode === '55P03') return 'IN_USE';
  if (cause?.originalCode === '57014') return 'TOO_LONG';
  return null;
}

/** The datasets' rows in PostgreSQL: Prisma for the definitions, dataset SQL for their tables. */
export function createDatasetRepository(db: PrismaClient, pool: pg.Pool, limits: DatasetTableLimits) {
  /**
   * A transaction that changes a dataset's table: Prisma's 5 s default and the session's
   * statement_timeout are sized for requests, not for rewriting a large table, and the table's
   * ACCESS EXCLUSIVE lock must not wait (and queue every later reader) behind a long export.
   */
  const changingTable = <T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> =>
    db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT set_config('lock_timeout', ${String(limits.lockTimeoutMs)}, true)`;
        await tx.$queryRaw`SELECT set_config('statement_timeout', ${String(limits.timeoutMs)}, true)`;
        return work(tx);
      },
      { timeout: limits.timeoutMs + TRANSACTION_MARGIN_MS },
    );

  return {
    findOwned(userId: string, id: string) {
      return db.dataset.findFirst({
        where: { id, userId },
        include: {
          fields: { orderBy: { sequence: 'asc' } },
        },
      });
    },

    list(userId: string) {
      return db.dataset.findMany({ where: { userId }, orderBy: { createdAt: 'desc' } });
    },

    async isNameTaken(userId: string, name: string, exceptId?: string): Promise<boolean> {
      const found = await db.dataset.findFirst({
        where: { userId, name, ...(exceptId ? { id: { not: exceptId } } : {}) },
        select: { id: true },
      });
      return found !== null;
    },

    /** The maps of a dataset with the action (or the table column's action) they read. */
    maps(datasetId: string) {
      return db.datasetMap.findMany({
        where: { datasetField: { datasetId } },
        select: {
          datasetFieldId: true,
          actionId: true,
          tableColumnId: true,
          datasetField: { select: { name: true } },
        },
      });
    },

    /** Every action and GET_TABLE column of the caller's extractors that can fill a field. */
    valueSources(userId: string) {
      return db.extractorAction.findMany({
        where: {
          extractor: { userId, extractorType: 'EXTRACTOR' },
          type: { in: [...VALUE_ACTION_TYPES, 'GET_TABLE'] },
        },
        orderBy: [{ extractor: { name: 'asc' } }, { sequence: 'asc' }],
        select: {
          id: true,
          sequence: true,
          type: true,
          label: true,
          options: true,
          extractor: { select: { id: true, name: true } },
          getTable: {
            select: {
              name: true,
              columns: { orderBy: { sequence: 'asc' }, select: { id: true, label: true, type: true } },
            },
          },
        },
      });
    },

    /** Ids of the fields (of these) that a query selects or filters on. */
    async fieldsUsedByQueries(fieldIds: readonly string[]): Promise<Set<string>> {
      if (fieldIds.length === 0) return new Set();
      const [selected, filtered] = await Promise.all([
        db.queryField.findMany({
          where: { datasetFieldId: { in: [...fieldIds] } },
          select: { datasetFieldId: true },
        }),
        db.queryFilter.findMany({
          where: { datasetFieldId: { in: [...fieldIds] } },
          select: { datasetFieldId: true },
        }),
      ]);
      return new Set([...selected, ...filtered].map((row) => row.datasetFieldId));
    },

    async isUsedByQuery(datasetId: string): Promise<boolean> {
      const used = await db.query.findFirst({
        where: {
          OR: [
            { datasetId },
            { fields: { some: { datasetField: { datasetId } } } },
            { filters: { some: { datasetField: { datasetId } } } },
          ],
        },
        select: { id: true },
      });
      return used !== null;
    },

    hasRows(datasetId: string): Promise<boolean> {
      return datasetHasRows(pgSql(pool), datasetId);
    },

    /**
     * The dataset, its fields, its maps and its table, in one transaction: a failed save changes
     * nothing (PostgreSQL's DDL is transactional). An edited dataset's row is locked first, so a
     * run filling it waits for the new shape. Returns whether rows were kept under a new shape.
     */
    async save(userId: string, dataset: DatasetToSave): Promise<{ isDirty: boolean }> {
      return changingTable(async (tx) => {
        const sql = prismaSql(tx);
        const tableFields = (
          fields: readonly { id: string; type: ValueType; isKey: boolean }[],
        ): DatasetTableField[] =>
          fields.map((field) => ({ id: field.id, type: field.type, isKey: field.isKey }));

        if (dataset.isNew) {
          await tx.dataset.create({
            data: {
              id: dataset.id,
              userId,
              type: dataset.type,
              name: dataset.name,
              description: dataset.description,
            },
          });
          await tx.datasetField.createMany({
            data: dataset.fields.map((field) => ({ ...field, datasetId: dataset.id })),
          });
          await tx.datasetMap.createMany({ data: dataset.maps });
          await createDatasetTable(sql, dataset.id, tableFields(dataset.fields), {
            isEngineDataset: isEngineDatasetType(dataset.type),
          });
          return { isDirty: false };
        }

        await tx.$queryRaw`SELECT id FROM "Dataset" WHERE id = ${dataset.id}::uuid AND "userId" = ${userId}::uuid FOR UPDATE`;
        const before = await tx.datasetField.findMany({ where: { datasetId: dataset.id } });
        const beforeMaps = await tx.datasetMap.findMany({
          where: { datasetField: { datasetId: dataset.id } },
          select: { datasetFieldId: true, actionId: true, tableColumnId: true },
        });
        const keptIds = new Set(dataset.fields.map((field) => field.id));
        // Maps go first (they reference the fields), then removed fields, then the rest in place.
        await tx.datasetMap.deleteMany({ where: { datasetField: { datasetId: dataset.id } } });
        await tx.datasetField.deleteMany({
          where: { datasetId: dataset.id, id: { notIn: [...keptIds] } },
        });
        // Names are unique per dataset: move kept fields out of the way before renaming them.
        for (const field of before.filter((old) => keptIds.has(old.id))) {
          await tx.datasetField.update({ where: { id: field.id }, data: { name: `#renaming-${field.id}` } });
        }
        const existing = new Set(before.map((field) => field.id));
        for (const field of dataset.fields) {
          if (existing.has(field.id)) {
            await tx.datasetField.update({
              where: { id: field.id },
              data: { name: field.name, type: field.type, isKey: field.isKey, sequence: field.sequence },
            });
          } else {
            await tx.datasetField.create({ data: { ...field, datasetId: dataset.id } });
          }
        }
        await tx.datasetMap.createMany({ data: dataset.maps });
        await changeDatasetTable(sql, dataset.id, tableFields(before), tableFields(dataset.fields));

        const rowCount = await countDatasetRows(sql, dataset.id);
        const describe = (fields: readonly { id: string; type: string; isKey: boolean }[]) =>
          JSON.stringify([...fields].map((f) => [f.id, f.type, f.isKey]).sort());
        const describeMaps = (maps: readonly DatasetToSave['maps'][number][]) =>
          JSON.stringify(maps.map((m) => [m.datasetFieldId, m.actionId, m.tableColumnId].join()).sort());
        const hasChanged =
          describe(before) !== describe(dataset.fields) ||
          describeMaps(beforeMaps) !== describeMaps(dataset.maps);
        const current = await tx.dataset.findUniqueOrThrow({
          where: { id: dataset.id },
          select: { isDirty: true },
        });
        const isDirty = current.isDirty || (hasChanged && rowCount > 0);
        await tx.dataset.update({ where: { id: dataset.id }, data: { rowCount, isDirty } });
        return { isDirty };
      });
    },

    /** The dataset and its table, in one transaction (an export still reading it answers IN_USE). */
    async delete(userId: string, datasetId: string): Promise<boolean> {
      return changingTable(async (tx) => {
        const deleted = await tx.dataset.deleteMany({ where: { id: datasetId, userId } });
        if (deleted.count === 0) return false;
        await dropDatasetTable(prismaSql(tx), datasetId);
        return true;
      });
    },

    async rename(userId: string, id: string, name: string, description: string): Promise<boolean> {
      const updated = await db.dataset.updateMany({ where: { id, userId }, data: { name, description } });
      return updated.count === 1;
    },
  };
}
export type DatasetRepository = ReturnType<typeof createDatasetRepository>;
