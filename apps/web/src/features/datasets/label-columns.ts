import type { TFunction } from 'i18next';
import type { LabelColumnKey, LabelColumnMappingRow, LabelColumnRow, ValueType } from '@pagewright/shared';
import { actionNameOf } from '../../lib/action-labels';

/** One value of an extractor: an action, or one column of its Get table. */
export function rowKeyOf(row: LabelColumnKey): string {
  return `${row.actionId}:${row.tableColumnId ?? ''}`;
}

export function keyOf(row: LabelColumnKey): LabelColumnKey {
  return { actionId: row.actionId, tableColumnId: row.tableColumnId };
}

/** The action a row reads, named as the builder names it ("Get table (70)" when it has no label). */
export function actionNameOfRow(row: LabelColumnRow, t: TFunction): string {
  return actionNameOf(
    {
      label: row.extractorLabelTableColumnDto.actionLabel,
      type: row.actionType,
      sequence: row.actionSequence,
    },
    t,
  );
}

/** How a value is named to people: "Shop · Prices · Name" for a column, "Shop · Total" for a label. */
export function rowNameOf(row: LabelColumnRow, t: TFunction): string {
  const about = row.extractorLabelTableColumnDto;
  const parts = row.tableColumnId
    ? [about.extractorName, about.tableName || actionNameOfRow(row, t), about.tableColumnName ?? '']
    : [about.extractorName, actionNameOfRow(row, t)];
  return parts.join(' · ');
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Step 3's rows as the server sends them, keeping the boxes the user already ticked for rows and
 * fields that were there before (going back to step 2 and on again does not lose them). A row new
 * to step 3 comes with the field of its own name ticked (a column or label "Price" fills the field
 * "Price", case and spaces aside) when the save would take it: same kind of value (a file or not),
 * and no other value of that extractor already fills the field.
 */
export function mergeMapping(
  fresh: readonly LabelColumnMappingRow[],
  before: readonly LabelColumnMappingRow[],
  fields: readonly { name: string; type: ValueType }[],
): LabelColumnMappingRow[] {
  const previous = new Map(before.map((row) => [rowKeyOf(row), row]));
  const merged = fresh.map((row) => {
    const old = previous.get(rowKeyOf(row));
    if (!old) return row;
    return {
      ...row,
      checkBoxes: row.checkBoxes.map((box) => {
        const kept = old.checkBoxes.find((candidate) =>
          sameName(candidate.datasetFieldName, box.datasetFieldName),
        );
        return kept ? { ...box, checked: kept.checked } : box;
      }),
    };
  });
  const filled = new Set(
    merged.flatMap((row) =>
      row.checkBoxes
        .filter((box) => box.checked)
        .map((box) => `${row.extractorId}:${box.datasetFieldName.toLowerCase()}`),
    ),
  );
  return merged.map((row) => {
    const about = row.extractorLabelTableColumnDto;
    const valueName = row.tableColumnId ? about.tableColumnName : about.actionLabel;
    if (previous.has(rowKeyOf(row)) || !valueName) return row;
    return {
      ...row,
      checkBoxes: row.checkBoxes.map((box) => {
        const field = fields.find((candidate) => sameName(candidate.name, box.datasetFieldName));
        const filledKey = `${row.extractorId}:${box.datasetFieldName.toLowerCase()}`;
        const isTaken =
          box.checked ||
          !field ||
          !sameName(valueName, box.datasetFieldName) ||
          (field.type === 'FILE') !== (row.valueType === 'FILE') ||
          filled.has(filledKey);
        if (isTaken) return box;
        filled.add(filledKey);
        return { ...box, checked: true };
      }),
    };
  });
}
