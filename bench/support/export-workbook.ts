import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import type pg from 'pg';
import request from 'supertest';
import type ExcelJS from 'exceljs';
import { createDatasetTable, fillDataset, pgSql, type createPrismaClient } from '@pagewright/db';
import { fromRoot } from '../../tests/support/paths.js';

const CATEGORIES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
/** The columns of every export benchmark's dataset: one of each type the workbook formats. */
export const EXPORT_FIELD_NAMES = ['Name', 'Amount', 'Date', 'Category'];
const excel = createRequire(fromRoot('apps/api/package.json'))('exceljs') as typeof ExcelJS;

/**
 * A dataset of its own with `count` rows (text, number, date-time, text), filled through the
 * product's fill, and a saved query of all of them made through the wizard's calls. The rows come
 * back as the workbook holds them, for writing the same file in the benchmark's process.
 */
export async function createQueryOfRows(options: {
  apiUrl: string;
  auth: Record<string, string>;
  db: ReturnType<typeof createPrismaClient>;
  pool: pg.Pool;
  userId: string;
  count: number;
}): Promise<{ queryId: string; rows: unknown[][] }> {
  const { auth, db, pool, count } = options;
  const api = () => request(options.apiUrl);
  const small = await db.dataset.create({
    data: {
      userId: options.userId,
      name: `Rows ${count}`,
      description: `${count} rows`,
      fields: {
        create: [
          { name: 'Name', type: 'TEXT', isKey: false, sequence: 0 },
          { name: 'Amount', type: 'NUMBER', isKey: false, sequence: 1 },
          { name: 'Date', type: 'DATETIME', isKey: false, sequence: 2 },
          { name: 'Category', type: 'TEXT', isKey: false, sequence: 3 },
        ],
      },
    },
    include: { fields: true },
  });
  const fields = small.fields.map((field) => ({ id: field.id, type: field.type, isKey: false }));
  const rows = Array.from({ length: count }, (_, i) => [
    `Customer ${i}`,
    Math.round(i * 731) / 100,
    new Date(Date.UTC(2025, 0, 1) + i * 60_000),
    CATEGORIES[i % CATEGORIES.length] as string,
  ]);
  await createDatasetTable(pgSql(pool), small.id, fields);
  await fillDataset(pgSql(pool), {
    datasetId: small.id,
    fields,
    writtenFieldIds: fields.map((field) => field.id),
    rows: rows.map((row) =>
      Object.fromEntries(
        fields.map((field, index) => {
          const value = row[index];
          return [field.id, value instanceof Date ? value.toISOString() : String(value)];
        }),
      ),
    ),
    extractorId: null,
    runId: null,
  });
  const query = await api()
    .post('/api/query/createquery')
    .set(auth)
    .send({ name: `Rows ${count}`, description: 'Rows', timeZone: 'UTC' })
    .expect(201);
  await api().post('/api/query/dataset').set(auth).send({ datasetId: small.id }).expect(200);
  await api().post('/api/query/datasetfieldquery').set(auth).send({}).expect(200);
  await api()
    .post('/api/query/fieldselected')
    .set(auth)
    .send({ fields: small.fields.map((field) => ({ datasetFieldId: field.id })) })
    .expect(200);
  await api().post('/api/query/filterinputvalue').set(auth).send({ filters: [] }).expect(200);
  const queryId = (query.body as { id: string }).id;
  await api().get('/api/query/save').query({ queryId }).set(auth).expect(200);
  return { queryId, rows };
}

/**
 * exceljs's streaming writer writing `rows` in this process into `stream` (a sink when none is
 * given): `asExported` writes the workbook the API writes (a number format on date cells, column
 * widths); without it, plain cells. Resolves with the milliseconds it took.
 */
export async function writeWorkbookFromMemory(
  rows: readonly unknown[][],
  { asExported = true, stream }: { asExported?: boolean; stream?: Writable } = {},
): Promise<number> {
  const output = stream ?? new Writable({ write: (_chunk, _encoding, done) => done() });
  const started = performance.now();
  const workbook = new excel.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: asExported,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Query');
  const styles = EXPORT_FIELD_NAMES.map((name) => (name === 'Date' ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : {}));
  if (asExported) sheet.columns = EXPORT_FIELD_NAMES.map((name) => ({ width: name === 'Date' ? 20 : 18 }));
  sheet.addRow(EXPORT_FIELD_NAMES).commit();
  for (const cells of rows) {
    const row = sheet.addRow(cells);
    if (asExported)
      row.eachCell((cell, number) => {
        cell.style = styles[number - 1] ?? {};
      });
    row.commit();
  }
  sheet.commit();
  await workbook.commit();
  return performance.now() - started;
}
