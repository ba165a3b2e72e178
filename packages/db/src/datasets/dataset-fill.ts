import type { ValueType } from '@pagewright/shared';
import { aliasOf, datasetTable, fieldColumn, sqlTypeOf, type DatasetTableField } from './dataset-table.js';
import { ident, join, sql } from './sql.js';
import type { SqlRunner } from './sql-runner.js';

/** A value as a run read it: text, number, ISO date-time, a stored file's id, or nothing. */
export type FillValue = string | number | null | undefined;

const DECIMAL = /^-?\d+(\.\d+)?$/u;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/**
 * The text PostgreSQL casts into the field's column, or null when the value does not fit the
 * field's type (a NUMBER field given "n/a"): such a cell stays empty rather than failing the run.
 */
export function cellText(value: FillValue, type: ValueType): string | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'TEXT':
      return String(value);
    case 'NUMBER': {
      if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
      const text = value.trim();
      return DECIMAL.test(text) ? text : null;
    }
    case 'DATETIME': {
      const text = String(value).trim();
      if (!ISO_DATE.test(text)) return null;
      const time = Date.parse(text);
      return Number.isNaN(time) ? null : new Date(time).toISOString();
    }
    case 'FILE':
      return typeof value === 'string' && UUID.test(value) ? value : null;
  }
}

export interface DatasetFill {
  datasetId: string;
  /** Every field of the dataset (the key flags decide how rows combine). */
  fields: readonly DatasetTableField[];
  /** The fields this run writes: the others keep what earlier runs (other extractors) wrote. */
  writtenFieldIds: readonly string[];
  /** Rows as field id → value. */
  rows: readonly Readonly<Record<string, FillValue>>[];
  extractorId: string | null;
  runId: string | null;
  /**
   * An engine dataset's table (createDatasetTable's isEngineDataset): a row whose written values
   * change gets a new `_engine_version`, so it waits for the engine again; one written with the
   * same values keeps its version and is not imported again.
   */
  isEngineDataset?: boolean;
}

/**
 * Writes a run's rows in one statement (`INSERT … SELECT FROM unnest(…)`, one array parameter per
 * column): with key fields, a row whose key values exist updates that row's written fields
 * (ON CONFLICT on the key index); without, rows are appended. Rows of the batch sharing a key keep
 * the last one (PostgreSQL refuses to update one row twice in a statement). Returns the rows
 * written and how many of them are new.
 */
export async function fillDataset(
  runner: SqlRunner,
  fill: DatasetFill,
): Promise<{ written: number; inserted: number }> {
  const byId = new Map(fill.fields.map((field) => [field.id, field]));
  const keys = fill.fields.filter((field) => field.isKey);
  const written = [...new Set([...fill.writtenFieldIds, ...keys.map((field) => field.id)])].flatMap(
    (id) => byId.get(id) ?? [],
  );
  if (written.length === 0 || fill.rows.length === 0) return { written: 0, inserted: 0 };

  const texts = fill.rows.map((row) => written.map((field) => cellText(row[field.id], field.type)));
  let rows = texts;
  if (keys.length > 0) {
    const keyIndexes = keys.map((key) => written.indexOf(key));
    const lastByKey = new Map<string, (string | null)[]>();
    for (const row of texts) lastByKey.set(JSON.stringify(keyIndexes.map((index) => row[index])), row);
    rows = [...lastByKey.values()];
  }

  const columns = written.map((field) => ident(fieldColumn(field.id)));
  const aliases = written.map((_, index) => ident(aliasOf('c', index)));
  const selects = written.map(
    (field, index) => sql`u.${ident(aliasOf('c', index))}::${sqlTypeOf(field.type)}`,
  );
  // One text[] parameter per column: the statement's size does not grow with the rows.
  const unnest = written.map((_, index) => sql`${rows.map((row) => row[index] ?? null)}::text[]`);
  const updates = [
    ...columns.map((column) => sql`${column} = EXCLUDED.${column}`),
    sql`_extractor_id = EXCLUDED._extractor_id`,
    sql`_run_id = EXCLUDED._run_id`,
    sql`_updated_at = now()`,
    ...(fill.isEngineDataset
      ? [
          sql`_engine_version = CASE WHEN ROW(${join(columns.map((column) => sql`t.${column}`))}) IS DISTINCT FROM ROW(${join(
            columns.map((column) => sql`EXCLUDED.${column}`),
          )}) THEN t._engine_version + 1 ELSE t._engine_version END`,
        ]
      : []),
  ];
  const conflict =
    keys.length > 0
      ? sql` ON CONFLICT (${join(keys.map((key) => ident(fieldColumn(key.id))))}) DO UPDATE SET ${join(updates)}`
      : sql``;
  // xmax is 0 on a row this statement inserted, not on one it updated: the dataset's row count.
  const [result] = await runner.query<{ inserted: number }>(
    sql`WITH written AS (
       INSERT INTO ${ident(datasetTable(fill.datasetId))} AS t (${join(columns)}, _extractor_id, _run_id)
       SELECT ${join(selects)}, ${fill.extractorId}::uuid, ${fill.runId}::uuid FROM unnest(${join(unnest)}) AS u(${join(aliases)})${conflict}
       RETURNING (xmax = 0) AS inserted)
     SELECT count(*) FILTER (WHERE inserted)::int AS inserted FROM written`,
  );
  return { written: rows.length, inserted: result?.inserted ?? 0 };
}
