import {
  BULK_RUN_CSV_MAX_BYTES,
  BULK_RUN_MAX_INPUTS,
  formatMessage,
  type ExtractorInput,
} from '@pagewright/shared';
import { i18n } from '../../lib/i18n';

/** What the dialog shows of a chosen CSV before it is sent: its columns and how many runs it makes. */
export type CsvPreview = { columns: string[]; rowCount: number; problem: string | null };

const CSV_MAX_MB = BULK_RUN_CSV_MAX_BYTES / 1024 / 1024;

/** Whether a file is too large to send (checked before it is read). */
export const isCsvTooLarge = (file: Pick<File, 'size'>) => file.size > BULK_RUN_CSV_MAX_BYTES;

export const csvTooLargeText = () => formatMessage('bulk.run.csv.too.large', { max: CSV_MAX_MB });

/**
 * The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes as "" and line
 * breaks; a BOM is skipped), blank lines left out and fields trimmed, as the API reads it.
 * Null when a quote is left open.
 */
export function csvRecords(text: string): string[][] | null {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let isQuoted = false;
  let isFieldQuoted = false;
  const endField = () => {
    record.push(isFieldQuoted ? field : field.trim());
    field = '';
    isFieldQuoted = false;
  };
  const endRecord = () => {
    endField();
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (isQuoted) {
      if (char === '"' && body[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') isQuoted = false;
      else field += char;
    } else if (char === '"' && field.trim() === '') {
      isQuoted = true;
      isFieldQuoted = true;
      field = '';
    } else if (char === ',') endField();
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && body[index + 1] === '\n') index++;
      endRecord();
    } else if (!isFieldQuoted) field += char;
  }
  if (isQuoted) return null;
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

/**
 * The header's columns and the row count, with the first thing the API would refuse: an unreadable
 * file, a column that is not an input, no rows, too many rows, a row of another width. The values
 * themselves are checked by the API, which names the row and input.
 */
export function previewCsv(text: string, inputs: readonly Pick<ExtractorInput, 'name'>[]): CsvPreview {
  const records = csvRecords(text);
  if (records === null)
    return {
      columns: [],
      rowCount: 0,
      problem: formatMessage('bulk.run.csv.invalid', { reason: i18n.t('bulk.runs.csv.open.quote') }),
    };
  const [columns = [], ...rows] = records;
  const preview = (problem: string | null): CsvPreview => ({ columns, rowCount: rows.length, problem });
  const names = new Set(inputs.map((input) => input.name));
  const unknown = columns.find((column) => !names.has(column));
  if (unknown !== undefined) return preview(formatMessage('bulk.run.column.unknown', { column: unknown }));
  if (rows.length === 0) return preview(formatMessage('bulk.run.empty'));
  if (rows.length > BULK_RUN_MAX_INPUTS)
    return preview(
      formatMessage('bulk.run.too.many', {
        max: BULK_RUN_MAX_INPUTS.toLocaleString('en-US'),
        count: rows.length.toLocaleString('en-US'),
      }),
    );
  const uneven = rows.findIndex((row) => row.length !== columns.length);
  if (uneven >= 0)
    return preview(
      formatMessage('bulk.run.row.invalid', {
        row: uneven + 1,
        message: i18n.t('bulk.runs.csv.uneven', {
          fields: rows[uneven]?.length ?? 0,
          columns: columns.length,
        }),
      }),
    );
  return preview(null);
}
