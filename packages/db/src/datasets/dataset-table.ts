import type { ValueType } from '@pagewright/shared';
import { ident, join, sql, type SqlFragment, type SqlIdentifier } from './sql.js';
import type { SqlRunner } from './sql-runner.js';

/**
 * Each dataset's rows live in a PostgreSQL table of their own, one typed, indexed column per field
 * (docs/datasets-and-queries.md). Every name below is made from ids (uuids), never from what a user
 * typed, and enters SQL only through ident() (sql.ts), quoted; values are always bound parameters.
 */
export const DATASET_ROWS_SCHEMA = 'dataset_rows';

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/iu;

function hexOf(id: string): string {
  if (!UUID.test(id)) throw new Error(`Not a uuid: ${JSON.stringify(id)}`);
  return id.replaceAll('-', '').toLowerCase();
}

/** The one place names become SqlIdentifiers, quoted: from ids and this file's prefixes only. */
const named = (...parts: string[]) => parts.map((part) => `"${part}"`).join('.') as SqlIdentifier;

/** `"dataset_rows"."ds_<hex>"`, the table of one dataset (for SQL: ident(datasetTable(id))). */
export function datasetTable(datasetId: string): SqlIdentifier {
  return named(DATASET_ROWS_SCHEMA, `ds_${hexOf(datasetId)}`);
}

/** `"f_<hex>"`, the column of one field. */
export function fieldColumn(fieldId: string): SqlIdentifier {
  return named(`f_${hexOf(fieldId)}`);
}

/** `"c0"`, `"x1"`, `"sf2"`: the alias a statement gives its n-th result column (or file join). */
export function aliasOf(prefix: 'c' | 'x' | 'sf', index: number): SqlIdentifier {
  if (!Number.isSafeInteger(index) || index < 0) throw new Error(`Not an alias index: ${index}`);
  return named(`${prefix}${index}`);
}

const SQL_TYPES: Record<ValueType, SqlFragment> = {
  TEXT: sql`text`,
  NUMBER: sql`numeric`,
  DATETIME: sql`timestamptz`,
  FILE: sql`uuid`,
};

export function sqlTypeOf(type: ValueType): SqlFragment {
  return SQL_TYPES[type];
}

/** What the table needs to know of a field. */
export interface DatasetTableField {
  id: string;
  type: ValueType;
  isKey: boolean;
}

const fieldIndex = (fieldId: string) => named(`i_${hexOf(fieldId)}`);
/** Schema-qualified: DROP INDEX names the schema, CREATE INDEX takes the table's. */
const keyIndex = (datasetId: string) => named(DATASET_ROWS_SCHEMA, `k_${hexOf(datasetId)}`);
const keyIndexName = (datasetId: string) => named(`k_${hexOf(datasetId)}`);
const engineIndexName = (datasetId: string) => named(`e_${hexOf(datasetId)}`);

function columnDefinition(field: DatasetTableField): SqlFragment {
  const references =
    field.type === 'FILE' ? sql` REFERENCES public."StoredFile"(id) ON DELETE SET NULL` : sql``;
  return sql`${ident(fieldColumn(field.id))} ${sqlTypeOf(field.type)}${references}`;
}

async function createFieldIndex(
  runner: SqlRunner,
  datasetId: string,
  field: DatasetTableField,
): Promise<void> {
  await runner.query(
    sql`CREATE INDEX ${ident(fieldIndex(field.id))} ON ${ident(datasetTable(datasetId))} (${ident(fieldColumn(field.id))})`,
  );
}

/**
 * One unique index over the key fields: a run's row with the same key values updates the row
 * (INSERT … ON CONFLICT). Empty key values count as equal (NULLS NOT DISTINCT), so a row whose
 * key cells are empty is one row too, not a new one each run. Rows that now share a key (the key
 * fields changed) are merged first: the most recently written one stays, as if the key had been
 * there when they were written.
 */
async function rebuildKeyIndex(
  runner: SqlRunner,
  datasetId: string,
  fields: readonly DatasetTableField[],
): Promise<void> {
  const table = ident(datasetTable(datasetId));
  await runner.query(sql`DROP INDEX IF EXISTS ${ident(keyIndex(datasetId))}`);
  const keyColumns = fields.filter((field) => field.isKey).map((field) => ident(fieldColumn(field.id)));
  if (keyColumns.length === 0) return;
  const keys = join(keyColumns);
  await runner.query(
    sql`DELETE FROM ${table} WHERE _row_id IN (
       SELECT _row_id FROM (
         SELECT _row_id, row_number() OVER (PARTITION BY ${keys} ORDER BY _updated_at DESC, _row_id DESC) AS n
         FROM ${table}) ranked
       WHERE n > 1)`,
  );
  await runner.query(
    sql`CREATE UNIQUE INDEX ${ident(keyIndexName(datasetId))} ON ${table} (${keys}) NULLS NOT DISTINCT`,
  );
}

/**
 * The table of a new dataset, its field indexes and its key index. An engine dataset's table also
 * keeps each row's import state (engine-sync.ts): `_engine_version` counts the row's changes,
 * `_engine_synced_version` is the version the engine last settled (accepted, or refused with
 * `_engine_rejection`); a row whose two versions differ is waiting for the engine.
 */
export async function createDatasetTable(
  runner: SqlRunner,
  datasetId: string,
  fields: readonly DatasetTableField[],
  options: { isEngineDataset?: boolean } = {},
): Promise<void> {
  const table = ident(datasetTable(datasetId));
  const columns = [
    sql`_row_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY`,
    sql`_extractor_id uuid`,
    sql`_run_id uuid`,
    sql`_created_at timestamptz NOT NULL DEFAULT now()`,
    sql`_updated_at timestamptz NOT NULL DEFAULT now()`,
    ...(options.isEngineDataset
      ? [
          sql`_engine_version integer NOT NULL DEFAULT 1`,
          sql`_engine_synced_version integer`,
          sql`_engine_rejection text`,
        ]
      : []),
    ...fields.map(columnDefinition),
  ];
  await runner.query(sql`CREATE TABLE ${table} (\n       ${join(columns, sql`,\n       `)})`);
  for (const field of fields) await createFieldIndex(runner, datasetId, field);
  await rebuildKeyIndex(runner, datasetId, fields);
  if (options.isEngineDataset)
    await runner.query(
      sql`CREATE INDEX ${ident(engineIndexName(datasetId))} ON ${table} (_row_id)
         WHERE _engine_synced_version IS DISTINCT FROM _engine_version`,
    );
}

/**
 * How a column's values become another type's: what converts is kept, what does not becomes empty
 * (a text "12.5" stays 12.5 as a NUMBER; "n/a" is empty). Files convert to nothing but files.
 */
function conversion(column: SqlFragment, from: ValueType, to: ValueType): SqlFragment {
  if (to === 'TEXT')
    return from === 'DATETIME'
      ? sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`
      : sql`${column}::text`;
  if (to === 'NUMBER' && from === 'TEXT')
    return sql`CASE WHEN btrim(${column}) ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN btrim(${column})::numeric END`;
  if (to === 'DATETIME' && from === 'TEXT')
    return sql`${ident(named(DATASET_ROWS_SCHEMA))}.try_timestamptz(${column})`;
  return sql`NULL`;
}

/**
 * Brings a dataset's table from one field list to the next, in the caller's transaction: columns
 * of removed fields go, new fields get a column and an index, a changed type converts the values
 * (conversion above), and the key index follows the key flags.
 */
export async function changeDatasetTable(
  runner: SqlRunner,
  datasetId: string,
  before: readonly DatasetTableField[],
  after: readonly DatasetTableField[],
): Promise<void> {
  const table = ident(datasetTable(datasetId));
  const beforeById = new Map(before.map((field) => [field.id, field]));
  const afterIds = new Set(after.map((field) => field.id));
  // The key index may cover a column about to go: drop it first, rebuild it last.
  await runner.query(sql`DROP INDEX IF EXISTS ${ident(keyIndex(datasetId))}`);
  for (const field of before) {
    if (!afterIds.has(field.id))
      await runner.query(sql`ALTER TABLE ${table} DROP COLUMN ${ident(fieldColumn(field.id))}`);
  }
  for (const field of after) {
    const old = beforeById.get(field.id);
    if (!old) {
      await runner.query(sql`ALTER TABLE ${table} ADD COLUMN ${columnDefinition(field)}`);
      await createFieldIndex(runner, datasetId, field);
    } else if (old.type !== field.type) {
      const column = ident(fieldColumn(field.id));
      if (old.type === 'FILE' || field.type === 'FILE') {
        // Files and other values do not convert: the column starts empty under its new type.
        await runner.query(sql`ALTER TABLE ${table} DROP COLUMN ${column}`);
        await runner.query(sql`ALTER TABLE ${table} ADD COLUMN ${columnDefinition(field)}`);
        await createFieldIndex(runner, datasetId, field);
      } else {
        await runner.query(
          sql`ALTER TABLE ${table} ALTER COLUMN ${column} TYPE ${sqlTypeOf(field.type)} USING ${conversion(column, old.type, field.type)}`,
        );
      }
    }
  }
  await rebuildKeyIndex(runner, datasetId, after);
}

export async function dropDatasetTable(runner: SqlRunner, datasetId: string): Promise<void> {
  await runner.query(sql`DROP TABLE IF EXISTS ${ident(datasetTable(datasetId))}`);
}

/** Rows the dataset holds now (an estimate is not enough: the list shows it and tests read it). */
export async function countDatasetRows(runner: SqlRunner, datasetId: string): Promise<number> {
  const [row] = await runner.query<{ count: string }>(
    sql`SELECT count(*)::text AS count FROM ${ident(datasetTable(datasetId))}`,
  );
  return Number(row?.count ?? 0);
}

/** Whether the dataset holds at least one row (GET /dataset/verifyDatasetHasData). */
export async function datasetHasRows(runner: SqlRunner, datasetId: string): Promise<boolean> {
  const rows = await runner.query(sql`SELECT 1 FROM ${ident(datasetTable(datasetId))} LIMIT 1`);
  return rows.length > 0;
}
