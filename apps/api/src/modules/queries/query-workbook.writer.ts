/**
 * The export's .xlsx as exceljs's streaming writer makes it: one sheet, a header row of the column
 * names, then the rows. Used by the writer thread (query-workbook.worker, large exports) and by the
 * API thread itself (small exports, query-workbook.ts): the same workbook either way.
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { DatasetQueryCell, DatasetQueryRow } from '@pagewright/db/dataset-query';
import type { ValueType } from '@pagewright/shared';
import type { WorkbookColumn } from './query-workbook.protocol.js';

const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
/** Excel's limit on a sheet name, and the characters it refuses in one. */
const SHEET_NAME_MAX = 31;
const SHEET_NAME_REFUSED = /[[\]:*?/\\\p{Cc}]/gu;

/** A cell as Excel should hold it: numbers as numbers, date-times as dates (UTC), files by name. */
function cellValue(cell: DatasetQueryCell | undefined, type: ValueType): string | number | Date | null {
  const value = cell?.value ?? null;
  if (value === null) return null;
  if (type === 'NUMBER') return Number(value);
  if (type === 'DATETIME') return new Date(value);
  return value;
}

/** The part of a (readable-stream 2) writable that says what it holds and when it drains. */
interface ZipEntryStream {
  _writableState?: { length?: number };
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/** XML the sheet may have waiting for the zip before the writing pauses: overlap, bounded. */
const SHEET_BUFFER_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Resolves once the zip entry the sheet's XML goes into holds less than SHEET_BUFFER_MAX_BYTES.
 * exceljs writes there without heeding its answer, so a sheet written faster than it is deflated
 * would pile up in that entry's buffer; waiting on it is the only backpressure there is. The entry
 * is archiver's readable-stream 2 PassThrough, which has no `writableLength`.
 */
function sheetEntryDrained(sheet: ExcelJS.Worksheet): Promise<void> {
  const internal = sheet as unknown as { stream?: { pipes?: unknown[] } };
  const entry = internal.stream?.pipes?.[0] as ZipEntryStream | undefined;
  const buffered = () => entry?._writableState?.length ?? 0;
  if (typeof entry?.once !== 'function' || buffered() < SHEET_BUFFER_MAX_BYTES) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      entry.off('drain', done);
      entry.off('close', done);
      resolve();
    };
    entry.once('drain', done);
    entry.once('close', done);
  });
}

export interface QueryWorkbookWriter {
  /** Writes a batch of rows; resolves once the sheet's XML may take more. */
  addRows(rows: readonly DatasetQueryRow[]): Promise<void>;
  /** Ends the sheet and the zip: the stream has every byte once this resolves. */
  finish(): Promise<void>;
}

/** A workbook written into `stream` as rows are added (the header row is written at once). */
export function createQueryWorkbookWriter(options: {
  stream: Writable;
  sheetName: string;
  columns: readonly WorkbookColumn[];
}): QueryWorkbookWriter {
  const { columns } = options;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: options.stream,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(
    options.sheetName.replace(SHEET_NAME_REFUSED, '_').slice(0, SHEET_NAME_MAX).trim() || 'Query',
  );
  sheet.columns = columns.map((column) => ({ width: column.type === 'DATETIME' ? 20 : 18 }));
  // A style object per column, given to every cell (date-times need their number format; the
  // others are quicker written with an empty style than merged from their row and column).
  // exceljs's styles remember an object they have seen: each cell costs a lookup.
  const styles = columns.map((column) => (column.type === 'DATETIME' ? { numFmt: DATE_FORMAT } : {}));
  sheet.addRow(columns.map((column) => column.name)).commit();
  return {
    async addRows(rows) {
      for (const cells of rows) {
        const row = sheet.addRow(columns.map((column, index) => cellValue(cells[index], column.type)));
        row.eachCell((cell, number) => {
          cell.style = styles[number - 1] ?? {};
        });
        row.commit();
      }
      await sheetEntryDrained(sheet);
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
  };
}
