import type { ValueType } from '@pagewright/shared';
import type { SqlRunner } from './sql-runner.js';

/**
 * Each dataset's rows live in a PostgreSQL table of their own, one typed, indexed column per field
 * (docs/datasets-and-queries.md). Every name below is made from ids (uuids), never from what a user
 * typed, and is still quoted; values are always bound parameters.
 */
export const DATASET_ROWS_SCHEMA = 'dataset_rows';

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/iu;

function hexOf(id: string): string {
  if (!UUID.test(id)) throw new Error(`Not a uuid: ${JSON.stringify(id)}`);
  return id.replaceAll('-', '').toLowerCase();
}

/** `"dataset_rows"."ds_<hex>"`, ready to put in SQL. */
export function datasetTable(datasetId: string): string {
  return `"${DATASET_ROWS_SCHEMA}"."ds_${hexOf(datasetId)}"`;
}

/** `"f_<hex>"`, the column of one field. */
export function fieldColumn(fieldId: string): string {
  return `"f_${hexOf(fieldId)}"`;
}

const SQL_TYPES: Record<ValueType, string> = {
  TEXT: 'text',
  NUMBER: 'numeric',
  DATETIME: 'timestamptz',
  FILE: 'uuid',
};

export function sqlTypeOf(type: ValueType): string {
  return SQL_TYPES[type];
}

/** What the table needs to know of a field. */
export interface DatasetTableField {
  id: string;
  type: ValueType;
  isKey: boolean;
}

function indexName(fieldId: string): string {
  return `"i_${hexOf(fieldId)}"`;
}
function keyIndexName(datasetId: string): string {
  return `"k_${hexOf(datasetId)}"`;
}

function columnDefinition(field: DatasetTableField): string {
  const references = field.type === 'FILE' ? ' REFERENCES public."StoredFile"(id) ON DELETE SET NULL' : '';
  return `${fieldColumn(field.id)} ${sqlTypeOf(field.type)}${references}`;
}

async function createFieldIndex(sql: SqlRunner, datasetId: string, field: DatasetTableField): Promise<void> {
  await sql.query(
    `CREATE INDEX ${indexName(field.id)} ON ${datasetTable(datasetId)} (${fieldColumn(field.id)})`,
  );
}

/**
 * One unique index over the key fields: a run's row with the same key values updates the row
 * (INSERT … ON CONFLICT). Empty key values count as equal (NULLS NOT DISTINCT), so a row whose
 * key cells are empty is one row too, not a new one each run. Rows that now share a key (the key
 * fields changed) are merged first: the most recently written one stays, as if the key had been
 * there when they were written.
 */
async function rebuildKeyIndex(sql: SqlRunner, datasetId: string, fields: readonly DatasetTableField[]) {
  const table = datasetTable(datasetId);
  await sql.query(`DROP INDEX IF EXISTS "${DATASET_ROWS_SCHEMA}".${keyIndexName(datasetId)}`);
  const keys = fields.filter((field) => field.isKey).map((field) => fieldColumn(field.id));
  if (keys.length === 0) return;
  await sql.query(
    `DELETE FROM ${table} WHERE _row_id IN (
       SELECT _row_id FROM (
         SELECT _row_id, row_number() OVER (PARTITION BY ${keys.join(', ')} ORDER BY _updated_at DESC, _row_id DESC) AS n
         FROM ${table}) ranked
       WHERE n > 1)`,
  );
  await sql.query(
    `CREATE UNIQUE INDEX ${keyIndexName(datasetId)} ON ${table} (${keys.join(', ')}) NULLS NOT DISTINCT`,
  );
}

/**
 * The table of a new dataset, its field indexes and its key index. An engine dataset's table also
 * keeps each row's import state (engine-sync.ts): `_engine_version` counts the row's changes,
 * `_engine_synced_version` is the version the engine last settled (accepted, or refused with
 * `_engine_rejection`); a row whose two versions differ is waiting for the engine.
 */
export async function createDatasetTable(
  sql: SqlRunner,
  datasetId: string,
  fields: readonly DatasetTableField[],
  options: { isEngineDataset?: boolean } = {},
): Promise<void> {
  const columns = [
    ...(options.isEngineDataset
      ? [
          '_engine_version integer NOT NULL DEFAULT 1',
          '_engine_synced_version integer',
          '_engine_rejection text',
        ]
      : []),
    ...fields.map(columnDefinition),
  ];
  await sql.query(
    `CREATE TABLE ${datasetTable(datasetId)} (
       _row_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       _extractor_id uuid,
       _run_id uuid,
       _created_at timestamptz NOT NULL DEFAULT now(),
       _updated_at timestamptz NOT NULL DEFAULT now()${columns.map((column) => `,\n       ${column}`).join('')})`,
  );
  for (const field of fields) await createFieldIndex(sql, datasetId, field);
  await rebuildKeyIndex(sql, datasetId, fields);
  if (options.isEngineDataset)
    await sql.query(
      `CREATE INDEX "e_${hexOf(datasetId)}" ON ${datasetTable(datasetId)} (_row_id)
         WHERE _engine_synced_version IS DISTINCT FROM _engine_version`,
    );
}

/**
 * How a column's values become another type's: what converts is kept, what does not becomes empty
 * (a text "12.5" stays 12.5 as a NUMBER; "n/a" is empty). Files convert to nothing but files.
 */
function conversion(column: string, from: ValueType, to: ValueType): string {
  if (to === 'TEXT')
    return from === 'DATETIME'
      ? `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`
      : `${column}::text`;
  if (to === 'NUMBER' && from === 'TEXT')
    return `CASE WHEN btrim(${column}) ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN btrim(${column})::numeric END`;
  if (to === 'DATETIME' && from === 'TEXT') return `"${DATASET_ROWS_SCHEMA}".try_timestamptz(${column})`;
  return 'NULL';
}

/**
 * Brings a dataset's table from one field list to the next, in the caller's transaction: columns
 * of removed fields go, new fields get a column and an index, a changed type converts the values
 * (conversion above), and the key index follows the key flags.
 */
export async function changeDatasetTable(
  sql: SqlRunner,
  datasetId: string,
  before: readonly DatasetTableField[],
  after: readonly DatasetTableField[],
): Promise<void> {
  const table = datasetTable(datasetId);
  const beforeById = new Map(before.map((field) => [field.id, field]));
  const afterIds = new Set(after.map((field) => field.id));
  // The key index may cover a column about to go: drop it first, rebuild it last.
  await sql.query(`DROP INDEX IF EXISTS "${DATASET_ROWS_SCHEMA}".${keyIndexName(datasetId)}`);
  for (const field of before) {
    if (!afterIds.has(field.id)) await sql.query(`ALTER TABLE ${table} DROP COLUMN ${fieldColumn(field.id)}`);
  }
  for (const field of after) {
    const old = beforeById.get(field.id);
    if (!old) {
      await sql.query(`ALTER TABLE ${table} ADD COLUMN ${columnDefinition(field)}`);
      await createFieldIndex(sql, datasetId, field);
    } else if (old.type !== field.type) {
      const column = fieldColumn(field.id);
      if (old.type === 'FILE' || field.type === 'FILE') {
        // Files and other values do not convert: the column starts empty under its new type.
        await sql.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
        await sql.query(`ALTER TABLE ${table} ADD COLUMN ${columnDefinition(field)}`);
        await createFieldIndex(sql, datasetId, field);
      } else {
        await sql.query(
          `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE ${sqlTypeOf(field.type)} USING ${conversion(column, old.type, field.type)}`,
        );
      }
    }
  }
  await rebuildKeyIndex(sql, datasetId, after);
}

export async function dropDatasetTable(sql: SqlRunner, datasetId: string): Promise<void> {
  await sql.query(`DROP TABLE IF EXISTS ${datasetTable(datasetId)}`);
}

/** Rows the dataset holds now (an estimate is not enough: the list shows it and tests read it). */
export async function countDatasetRows(sql: SqlRunner, datasetId: string): Promise<number> {
  const [row] = await sql.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM ${datasetTable(datasetId)}`,
  );
  return Number(row?.count ?? 0);
}

/** Whether the dataset holds at least one row (GET /dataset/verifyDatasetHasData). */
export async function datasetHasRows(sql: SqlRunner, datasetId: string): Promise<boolean> {
  const rows = await sql.query(`SELECT 1 FROM ${datasetTable(datasetId)} LIMIT 1`);
  return rows.length > 0;
}
