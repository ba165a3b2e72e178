import { expect } from 'vitest';
import request from 'supertest';
import { MESSAGES, type LabelColumnMappingRow, type LabelColumnRow } from '@pagewright/shared';

/**
 * The dataset wizard over HTTP, as the screens call it (steps 1 to 3 and save): shared by the
 * dataset tests and the tests of features that fill or read datasets (bulk runs).
 */

export interface FieldSpec {
  name: string;
  type?: 'TEXT' | 'NUMBER' | 'DATETIME' | 'FILE';
  dataSetKey?: boolean;
  datasetFieldId?: string | null;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Rows step 2 offers: every label and Get-table column of the user's extractors. */
export const offeredRows = async (apiUrl: string, token: string): Promise<LabelColumnRow[]> =>
  (
    (await request(apiUrl).get('/api/dataset/datasetlabelcolumn').set(bearer(token)).expect(200)).body as {
      labelTablesColumnsDto: LabelColumnRow[];
    }
  ).labelTablesColumnsDto;

/** "Statements / Name" for a column, "Title" for a label: how the tests name an offered row. */
export const rowName = (row: LabelColumnRow) =>
  row.extractorLabelTableColumnDto.tableColumnName
    ? `${row.extractorLabelTableColumnDto.tableName} / ${row.extractorLabelTableColumnDto.tableColumnName}`
    : row.extractorLabelTableColumnDto.actionLabel;

/**
 * The whole wizard: fields (step 1), the rows of `extractorId` named in `mapping` (step 2), each
 * checked for its field (step 3), save. `mapping` is extractor id → field name → row name.
 */
export async function buildDataset(
  apiUrl: string,
  token: string,
  name: string,
  fields: FieldSpec[],
  mapping: Record<string, Record<string, string>>,
): Promise<string> {
  const created = await request(apiUrl)
    .post('/api/dataset/createdataset')
    .set(bearer(token))
    .send({ type: 'CUSTOM', name, description: `${name} rows` })
    .expect(201);
  const datasetId = (created.body as { id: string }).id;
  await request(apiUrl).post('/api/dataset/datasetfield').set(bearer(token)).send({ fields }).expect(200);
  return saveMapping(apiUrl, token, datasetId, mapping);
}

export async function saveMapping(
  apiUrl: string,
  token: string,
  datasetId: string,
  mapping: Record<string, Record<string, string>>,
  expected = 200,
): Promise<string> {
  const offered = await offeredRows(apiUrl, token);
  const chosen = Object.entries(mapping).flatMap(([extractorId, byField]) =>
    Object.entries(byField).map(([field, row]) => {
      const found = offered.find(
        (candidate) => candidate.extractorId === extractorId && rowName(candidate) === row,
      );
      if (!found) throw new Error(`no offered row ${row} of ${extractorId}`);
      return { field, row: found };
    }),
  );
  const unique = [
    ...new Map(chosen.map(({ row }) => [`${row.actionId}:${row.tableColumnId}`, row])).values(),
  ];
  const step3 = await request(apiUrl)
    .post('/api/dataset/labeltablecolumnlist')
    .set(bearer(token))
    .send({ rows: unique.map(({ actionId, tableColumnId }) => ({ actionId, tableColumnId })) })
    .expect(200);
  const mappingRows = (step3.body as { labelAndTableColumnDtoList: LabelColumnMappingRow[] })
    .labelAndTableColumnDtoList;
  const rows = mappingRows.map((row) => ({
    actionId: row.actionId,
    tableColumnId: row.tableColumnId,
    checkBoxes: row.checkBoxes.map((box) => ({
      datasetFieldName: box.datasetFieldName,
      checked: chosen.some(
        ({ field, row: source }) =>
          field === box.datasetFieldName &&
          source.actionId === row.actionId &&
          source.tableColumnId === row.tableColumnId,
      ),
    })),
  }));
  const saved = await request(apiUrl)
    .post('/api/dataset/save')
    .query({ datasetId })
    .set(bearer(token))
    .send({ rows })
    .expect(expected);
  if (expected === 200) expect(saved.body).toEqual({ id: datasetId, message: MESSAGES['dataset.saved'] });
  return datasetId;
}
