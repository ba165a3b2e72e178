import { PassThrough, type Readable, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyBaseLogger } from 'fastify';
import type { DatasetQueryCell, DatasetQueryCursor } from '@pagewright/db';
import type { ValueType } from '@pagewright/shared';

/** What a spreadsheet column needs of a query column. */
export interface WorkbookColumn {
  name: string;
  type: ValueType;
}

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

/** `RFC 6266` attachment header: an ASCII fallback name plus the exact name (RFC 5987 `filename*`). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  const exact = encodeURIComponent(fileName).replace(
    /['()*!]/gu,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** Resolves once the stream takes writes again, or is gone. */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * The query's rows as an .xlsx, written while it is read: exceljs's streaming writer takes a batch
 * of the cursor at a time and waits whenever the reader (the HTTP response) falls behind, so memory
 * stays flat whatever the row count. `release` runs once, when the workbook is done, fails, or the
 * reader goes away.
 */
export function workbookStream(options: {
  sheetName: string;
  columns: readonly WorkbookColumn[];
  cursor: DatasetQueryCursor;
  release: () => Promise<void>;
  log: FastifyBaseLogger;
}): Readable {
  const { columns, cursor, log } = options;
  const output = new PassThrough();
  // A reader that leaves mid-way makes late writes fail: logged, never thrown at the process.
  output.on('error', (error) => log.warn({ err: error }, 'query export stream ended early'));

  async function write(): Promise<void> {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(
      options.sheetName.replace(SHEET_NAME_REFUSED, '_').slice(0, SHEET_NAME_MAX).trim() || 'Query',
    );
    sheet.columns = columns.map((column) => ({ width: column.type === 'DATETIME' ? 20 : 18 }));
    // One style object per column: exceljs's styles remember an object they have seen, so cells
    // sharing one cost a lookup instead of a style built per cell (twice the writing time).
    const styles = columns.map((column) => (column.type === 'DATETIME' ? { numFmt: DATE_FORMAT } : {}));
    sheet.addRow(columns.map((column) => column.name)).commit();
    for (let batch = await cursor.read(); batch.length > 0; batch = await cursor.read()) {
      if (output.destroyed) return;
      for (const row of batch) {
        const added = sheet.addRow(columns.map((column, index) => cellValue(row[index], column.type)));
        added.eachCell((cell, number) => {
          cell.style = styles[number - 1] ?? {};
        });
        added.commit();
      }
      if (output.writableNeedDrain) await drained(output);
    }
    if (output.destroyed) return;
    sheet.commit();
    await workbook.commit();
  }

  let isReleased = false;
  const release = async () => {
    if (isReleased) return;
    isReleased = true;
    await options.release().catch((error: unknown) => log.error({ err: error }, 'query export cursor'));
  };
  output.on('close', () => void release());
  write().then(release, async (error: unknown) => {
    log.error({ err: error }, 'query export failed');
    await release();
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}
