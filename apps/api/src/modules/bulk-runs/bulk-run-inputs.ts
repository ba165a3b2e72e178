import { parse } from 'csv-parse/sync';
import {
  BULK_RUN_LINES_SOURCE_NAME,
  BULK_RUN_MAX_INPUTS,
  INPUT_MESSAGES,
  MESSAGES,
  resolveInputValues,
  type CreateBulkRunParsed,
  type ExtractorInput,
  type RunInputValues,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';

/**
 * The rows of a dataset or a saved query, by column name, for a bulk run's inputs: what the
 * queries module reads for the caller (app.ts passes it in; modules do not import each other).
 * Null: no such dataset or query of the caller's.
 */
export interface BulkRunRowSource {
  read(
    userId: string,
    source: { kind: 'DATASET' | 'QUERY'; id: string },
    limit: number,
  ): Promise<{ name: string; columns: string[]; rows: Record<string, string | null>[] } | null>;
}

/** A bulk run's inputs, one values object per row, and the name its source shows. */
export interface BulkRunInputRows {
  sourceName: string;
  rows: RunInputValues[];
}

const tooMany = (count: number) =>
  AppError.validation(
    MESSAGES['bulk.run.too.many']
      .replace('{{max}}', BULK_RUN_MAX_INPUTS.toLocaleString('en-US'))
      .replace('{{count}}', count.toLocaleString('en-US')),
    'source',
  );

/** A value left empty takes the input's default (the resolution fills it in). */
function given(values: Record<string, string | null | undefined>): RunInputValues {
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] != null && entry[1] !== ''),
  );
}

/** CSV: a header row of input names, then one row per run (RFC 4180, a BOM allowed). */
function csvRows(declared: readonly ExtractorInput[], csv: string): RunInputValues[] {
  let records: string[][];
  try {
    records = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: false, trim: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
    throw AppError.validation(MESSAGES['bulk.run.csv.invalid'].replace('{{reason}}', reason), 'csv');
  }
  const [header, ...body] = records;
  if (!header || body.length === 0) throw AppError.validation(MESSAGES['bulk.run.empty'], 'csv');
  const names = new Set(declared.map((input) => input.name));
  for (const column of header)
    if (!names.has(column))
      throw AppError.validation(MESSAGES['bulk.run.column.unknown'].replace('{{column}}', column), 'csv');
  if (body.length > BULK_RUN_MAX_INPUTS) throw tooMany(body.length);
  return body.map((record) => given(Object.fromEntries(header.map((name, index) => [name, record[index]]))));
}

/** Pasted lines: one value per non-blank line for one input. */
function lineRows(declared: readonly ExtractorInput[], lines: string, inputName?: string): RunInputValues[] {
  const name = inputName ?? (declared.length === 1 ? declared[0]?.name : undefined);
  if (!name) throw AppError.validation(MESSAGES['bulk.run.lines.input.required'], 'inputName');
  if (!declared.some((input) => input.name === name))
    throw AppError.validation(INPUT_MESSAGES.unknown.replace('{{name}}', name), 'inputName');
  const values = lines
    .split(/\r?\n/u)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (values.length > BULK_RUN_MAX_INPUTS) throw tooMany(values.length);
  return values.map((value) => ({ [name]: value }));
}

/**
 * A dataset's or query's rows: each input takes the column the mapping names, or else the column
 * of its own name (case aside); an input with neither keeps its default.
 */
function tableRows(
  declared: readonly ExtractorInput[],
  table: { columns: string[]; rows: Record<string, string | null>[] },
  mapping: Record<string, string>,
): RunInputValues[] {
  const inputNames = new Set(declared.map((input) => input.name));
  for (const input of Object.keys(mapping))
    if (!inputNames.has(input))
      throw AppError.validation(INPUT_MESSAGES.unknown.replace('{{name}}', input), `columns.${input}`);
  const columnOf = new Map<string, string>();
  for (const input of declared) {
    const wanted = mapping[input.name];
    const column = wanted
      ? table.columns.find((name) => name === wanted)
      : table.columns.find((name) => name.toLowerCase() === input.name.toLowerCase());
    if (wanted && !column)
      throw AppError.validation(
        MESSAGES['bulk.run.column.missing'].replace('{{column}}', wanted).replace('{{input}}', input.name),
        `columns.${input.name}`,
      );
    if (column) columnOf.set(input.name, column);
  }
  const first = declared[0];
  if (columnOf.size === 0 && first)
    throw AppError.validation(
      MESSAGES['bulk.run.column.missing'].replace('{{column}}', first.name).replace('{{input}}', first.name),
      `columns.${first.name}`,
    );
  if (table.rows.length > BULK_RUN_MAX_INPUTS) throw tooMany(table.rows.length);
  return table.rows.map((row) =>
    given(Object.fromEntries([...columnOf].map(([input, column]) => [input, row[column]]))),
  );
}

/**
 * The source's rows as checked run values (defaults filled in): the first row with a value of the
 * wrong type refuses the whole bulk run, naming its row and input, so nothing half-made is queued.
 */
export async function bulkRunInputRows(
  userId: string,
  declared: readonly ExtractorInput[],
  source: CreateBulkRunParsed,
  tables: BulkRunRowSource,
): Promise<BulkRunInputRows> {
  let sourceName: string;
  let rows: RunInputValues[];
  switch (source.source) {
    case 'CSV':
      sourceName = source.fileName;
      rows = csvRows(declared, source.csv);
      break;
    case 'LINES':
      sourceName = BULK_RUN_LINES_SOURCE_NAME;
      rows = lineRows(declared, source.lines, source.inputName);
      break;
    case 'DATASET':
    case 'QUERY': {
      const id = source.source === 'DATASET' ? source.datasetId : source.queryId;
      const table = await tables.read(userId, { kind: source.source, id }, BULK_RUN_MAX_INPUTS + 1);
      if (!table) throw AppError.notFound(MESSAGES['bulk.run.source.not.found']);
      sourceName = table.name;
      rows = tableRows(declared, table, source.columns);
      break;
    }
  }
  if (rows.length === 0) throw AppError.validation(MESSAGES['bulk.run.empty'], 'source');
  const resolved: RunInputValues[] = [];
  for (const [index, row] of rows.entries()) {
    const values = resolveInputValues(declared, row);
    if (!values.ok)
      throw AppError.validation(
        MESSAGES['bulk.run.row.invalid']
          .replace('{{row}}', String(index + 1))
          .replace('{{message}}', values.message),
        `rows.${index + 1}.${values.name}`,
      );
    resolved.push(values.values);
  }
  return { sourceName: sourceName.slice(0, 255), rows: resolved };
}
