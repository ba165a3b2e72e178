import type { StepValue } from '@pagewright/shared';
import type { FillValue } from './dataset-fill.js';

/** One mapping of a dataset field: an action's value, or one column of the action's GET_TABLE. */
export interface FieldSource {
  fieldId: string;
  actionId: string;
  /** The GET_TABLE column's label (unique in its table); null for an action's own value. */
  tableColumnLabel: string | null;
}

/** What a run kept of one step of a mapped action (its last run when the flow looped). */
export interface RunStepValue {
  actionId: string;
  value: StepValue | null;
  /** GET_FILE / GET_IMAGE: the stored file. */
  fileId: string | null;
  /** GET_TABLE FILE cells: the stored file of each (row, column of the value). */
  tableFiles: readonly { rowIndex: number; columnIndex: number; fileId: string }[];
}

function labelValue(step: RunStepValue | undefined): FillValue {
  if (!step?.value) return null;
  switch (step.value.kind) {
    case 'text':
    case 'number':
    case 'datetime':
      return step.value.value;
    case 'file':
    case 'image':
      return step.fileId;
    case 'table':
    case 'none':
      return null;
  }
}

/**
 * A run's rows for one dataset (docs/datasets-and-queries.md, "Filling"): each mapped GET_TABLE
 * gives a row per table row, with the mapped labels repeated on each; tables of one extractor
 * follow one another; without a mapped table the run gives one row of labels. FILE cells become
 * the stored file's id. Nothing mapped ran: no rows.
 */
export function rowsOfRun(
  sources: readonly FieldSource[],
  steps: readonly RunStepValue[],
): Record<string, FillValue>[] {
  const stepByAction = new Map(steps.map((step) => [step.actionId, step]));
  const labels: Record<string, FillValue> = {};
  let hasLabel = false;
  const tableSources = new Map<string, FieldSource[]>();
  for (const source of sources) {
    if (source.tableColumnLabel === null) {
      const step = stepByAction.get(source.actionId);
      if (step) hasLabel = true;
      labels[source.fieldId] = labelValue(step);
    } else {
      tableSources.set(source.actionId, [...(tableSources.get(source.actionId) ?? []), source]);
    }
  }

  const rows: Record<string, FillValue>[] = [];
  for (const [actionId, columns] of tableSources) {
    const step = stepByAction.get(actionId);
    if (step?.value?.kind !== 'table') continue;
    const table = step.value;
    const indexOf = new Map(table.columns.map((column, index) => [column.label, index]));
    const fileOf = new Map(
      step.tableFiles.map((cell) => [`${cell.rowIndex}:${cell.columnIndex}`, cell.fileId]),
    );
    table.rows.forEach((cells, rowIndex) => {
      const row: Record<string, FillValue> = { ...labels };
      for (const source of columns) {
        const index = indexOf.get(source.tableColumnLabel as string);
        if (index === undefined) continue;
        row[source.fieldId] =
          table.columns[index]?.type === 'FILE' ? (fileOf.get(`${rowIndex}:${index}`) ?? null) : cells[index];
      }
      rows.push(row);
    });
  }
  if (tableSources.size === 0 && hasLabel) rows.push(labels);
  return rows;
}
