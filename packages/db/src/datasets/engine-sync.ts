import type { ValueType } from '@pagewright/shared';
import { datasetTable, fieldColumn } from './dataset-table.js';
import type { SqlRunner } from './sql-runner.js';

/**
 * The import state of an engine dataset's rows, kept on the rows themselves (createDatasetTable's
 * isEngineDataset): a fill that changes a row bumps its `_engine_version`; an import settles the
 * version it sent (`_engine_synced_version`), with the engine's reason when it refused the row. A
 * row changed while its import was on the way keeps a newer version than the one settled, so it
 * waits again: no change is ever marked imported without having been sent.
 */

const PENDING = '_engine_synced_version IS DISTINCT FROM _engine_version';
const REJECTED = '_engine_synced_version = _engine_version AND _engine_rejection IS NOT NULL';

export interface EngineSyncCounts {
  pending: number;
  rejected: number;
}

/** Rows waiting for the engine and rows it refused (as they are now). */
export async function countEngineSync(sql: SqlRunner, datasetId: string): Promise<EngineSyncCounts> {
  const [row] = await sql.query<{ pending: string; rejected: string }>(
    `SELECT count(*) FILTER (WHERE ${PENDING})::text AS pending,
            count(*) FILTER (WHERE ${REJECTED})::text AS rejected
       FROM ${datasetTable(datasetId)}`,
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
  sql: SqlRunner,
  datasetId: string,
  fields: readonly { id: string; type: ValueType }[],
  options: { afterRowId: string; limit: number },
): Promise<PendingEngineRow[]> {
  const columns = fields.map((field, index) => `${fieldColumn(field.id)} AS c${index}`);
  const rows = await sql.query<Record<string, unknown> & { row_id: string; version: number }>(
    `SELECT _row_id::text AS row_id, _engine_version AS version${columns.map((column) => `, ${column}`).join('')}
       FROM ${datasetTable(datasetId)}
      WHERE ${PENDING} AND _row_id > $1::bigint
      ORDER BY _row_id
      LIMIT $2`,
    [options.afterRowId, options.limit],
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
  sql: SqlRunner,
  datasetId: string,
  settled: readonly { rowId: string; version: number; rejection: string | null }[],
): Promise<void> {
  if (settled.length === 0) return;
  await sql.query(
    `UPDATE ${datasetTable(datasetId)} AS t
        SET _engine_synced_version = s.version, _engine_rejection = s.rejection
       FROM unnest($1::bigint[], $2::int[], $3::text[]) AS s(row_id, version, rejection)
      WHERE t._row_id = s.row_id AND t._engine_version = s.version`,
    [settled.map((row) => row.rowId), settled.map((row) => row.version), settled.map((row) => row.rejection)],
  );
}
