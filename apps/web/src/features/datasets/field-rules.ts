import {
  datasetFieldListRequestSchema,
  type DatasetFieldDto,
  type DatasetFieldInput,
  type ValueType,
} from '@pagewright/shared';

/** A row of step 1's field table; `rowKey` tells rows apart while names are being typed. */
export interface FieldRow {
  rowKey: string;
  datasetFieldId: string | null;
  name: string;
  type: ValueType;
  dataSetKey: boolean;
}

let nextRowKey = 1;

/** A new row: type TEXT and the key flag on (data spec §5). */
export function blankFieldRow(): FieldRow {
  return { rowKey: `new-${nextRowKey++}`, datasetFieldId: null, name: '', type: 'TEXT', dataSetKey: true };
}

export function fieldRowsOf(fields: readonly DatasetFieldDto[]): FieldRow[] {
  return fields.map((field) => ({
    rowKey: field.datasetFieldId ?? `new-${nextRowKey++}`,
    datasetFieldId: field.datasetFieldId,
    name: field.name,
    type: field.type,
    dataSetKey: field.dataSetKey,
  }));
}

export function fieldInputsOf(rows: readonly FieldRow[]): DatasetFieldInput[] {
  return rows.map((row) => ({
    datasetFieldId: row.datasetFieldId,
    name: row.name.trim(),
    type: row.type,
    dataSetKey: row.dataSetKey,
  }));
}

/**
 * Step 1's rules, with the API's own schema: every name given ('Enter Dataset Fields Name'), at most
 * 128 characters, unique in the dataset ignoring case (the later duplicates are marked). The
 * texts by row key, and whether Next may go on at all (no rows: 'Unable to go to next step').
 */
export function fieldRowErrors(rows: readonly FieldRow[]): {
  byRow: ReadonlyMap<string, string>;
  canGoOn: boolean;
} {
  const byRow = new Map<string, string>();
  const result = datasetFieldListRequestSchema.safeParse({ fields: fieldInputsOf(rows) });
  if (result.success) return { byRow, canGoOn: true };
  for (const issue of result.error.issues) {
    const [, index] = issue.path;
    const row = typeof index === 'number' ? rows[index] : undefined;
    if (row && !byRow.has(row.rowKey)) byRow.set(row.rowKey, issue.message);
  }
  return { byRow, canGoOn: false };
}

/** A column the dataset shows: a FILE field shows two, its file name and its file link (data spec §2). */
export interface DisplayColumn {
  key: string;
  label: string;
  type: ValueType;
}

export function displayColumns(
  rows: readonly Pick<FieldRow, 'rowKey' | 'name' | 'type'>[],
  labels: { fileName: (name: string) => string; fileLink: (name: string) => string },
): DisplayColumn[] {
  return rows
    .filter((row) => row.name.trim() !== '')
    .flatMap((row): DisplayColumn[] => {
      const name = row.name.trim();
      if (row.type !== 'FILE') return [{ key: row.rowKey, label: name, type: row.type }];
      return [
        { key: `${row.rowKey}:name`, label: labels.fileName(name), type: 'FILE' },
        { key: `${row.rowKey}:link`, label: labels.fileLink(name), type: 'FILE' },
      ];
    });
}
