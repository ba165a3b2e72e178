import type { LabelColumnKey, LabelColumnMappingRow, LabelColumnRow } from '@pagewright/shared';

/** One value of an extractor: an action, or one column of its Get table. */
export function rowKeyOf(row: LabelColumnKey): string {
  return `${row.actionId}:${row.tableColumnId ?? ''}`;
}

export function keyOf(row: LabelColumnKey): LabelColumnKey {
  return { actionId: row.actionId, tableColumnId: row.tableColumnId };
}

/** How a value is named to people: "Shop · Prices · Name" for a column, "Shop · Total" for a label. */
export function rowNameOf(row: LabelColumnRow): string {
  const about = row.extractorLabelTableColumnDto;
  const parts = row.tableColumnId
    ? [about.extractorName, about.tableName ?? about.actionLabel, about.tableColumnName ?? '']
    : [about.extractorName, about.actionLabel];
  return parts.join(' · ');
}

/**
 * Step 3's rows as the server sends them, keeping the boxes the user already ticked for rows and
 * fields that were there before (going back to step 2 and on again does not lose them).
 */
export function mergeMapping(
  fresh: readonly LabelColumnMappingRow[],
  before: readonly LabelColumnMappingRow[],
): LabelColumnMappingRow[] {
  const previous = new Map(before.map((row) => [rowKeyOf(row), row]));
  return fresh.map((row) => {
    const old = previous.get(rowKeyOf(row));
    if (!old) return row;
    return {
      ...row,
      checkBoxes: row.checkBoxes.map((box) => {
        const kept = old.checkBoxes.find(
          (candidate) => candidate.datasetFieldName.toLowerCase() === box.datasetFieldName.toLowerCase(),
        );
        return kept ? { ...box, checked: kept.checked } : box;
      }),
    };
  });
}
