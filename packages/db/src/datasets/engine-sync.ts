import type { ValueType } from '@pagewright/shared';
import { aliasOf, datasetTable, fieldColumn } from './dataset-table.js';
import { ident, join, sql } from './sql.js';
import type { SqlRunner } from './sql-runner.js';

/**
 * The import state of an engine dataset's rows, kept on the rows themselves (createDatasetTable's
 * isEngineDataset): a fill that changes a row bumps its `_engine_version`; an import settles the
 * version it sent (`_engine_synced_version`), with the engine's reason when it refused the row. A
 * row changed while its import was on the way keeps a newer version than the one settled, so it
 * waits again: no change is ever marked imported without having been sent.
 */

const PENDING = sql`_engine_synced_version IS DISTINCT FROM _engine_version`;
const REJECTED = sql`_engine_synced_version = _engine_version AND _engine_rejection IS NOT NULL`;

export interface EngineSyncCounts {
  pending: number;
  rejected: number;
}

/** Rows waiting for the engine and rows it refused (as they are now). */
export async function countEngineSync(runner: SqlRunner, datasetId: string): Promise<EngineSyncCounts> {
  const [row] = await runner.query<{ pending: string; rejected: string }>(
    sql`SELECT count(*) FILTER (WHERE ${PENDING})::text AS pending,
            count(*) FILTER (WHERE ${REJECTED})::text AS rejected
       FROM ${ident(datasetTable(datasetId))}`,
  );
  return { pending: Number(row?.pending ?? 0), rejected: Number(row?.rejected ?? 0) };
}

export interface PendingEngineRow {
  rowId: string;
  version: number;
  /** Field id → the stored value (numeric as text, timestamptz as Date, FILE as the file's id). */
  values: Record<string, unknown>;
}

/** The next rows waiting for the engine, in row order after `afterRowId`. */
export async function pendingEngineRows(
  runner: SqlRunner,
  datasetId: string,
  fields: readonly { id: string; type: ValueType }[],
  options: { afterRowId: string; limit: number },
): Promise<PendingEngineRow[]> {
  const columns = fields.map(
    (field, index) => sql`, ${ident(fieldColumn(field.id))} AS ${ident(aliasOf('c', index))}`,
  );
  const rows = await runner.query<Record<string, unknown> & { row_id: string; version: number }>(
    sql`SELECT _row_id::text AS row_id, _engine_version AS version${join(columns, sql``)}
       FROM ${ident(datasetTable(datasetId))}
      WHERE ${PENDING} AND _row_id > ${options.afterRowId}::bigint
      ORDER BY _row_id
      LIMIT ${options.limit}`,
  );
  return rows.map((row) => ({
    rowId: row.row_id,
    version: row.version,
    values: Object.fromEntries(fields.map((field, index) => [field.id, row[`c${index}`] ?? null])),
  }));
}

/**
 * Settles the versions an import sent: accepted rows (`rejection` null) and refused ones (their
 * reason kept; they wait until they change). A row changed since it was read keeps waiting.
 */
export async function settleEngineRows(
  runner: SqlRunner,
  datasetId: string,
  settled: readonly { rowId: string; version: number; rejection: string | null }[],
): Promise<void> {
  if (settled.length === 0) return;
  const rowIds = settled.map((row) => row.rowId);
  const versions = settled.map((row) => row.version);
  const rejections = settled.map((row) => row.rejection);
  await runner.query(
    sql`UPDATE ${ident(datasetTable(datasetId))} AS t
        SET _engine_synced_version = s.version, _engine_rejection = s.rejection
       FROM unnest(${rowIds}::bigint[], ${versions}::int[], ${rejections}::text[]) AS s(row_id, version, rejection)
      WHERE t._row_id = s.row_id AND t._engine_version = s.version`,
  );
}
