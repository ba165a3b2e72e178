import { isEngineDatasetType, stepValueSchema } from '@pagewright/shared';
import type { Prisma } from '../generated/client.js';
import { fillDataset } from './dataset-fill.js';
import { countEngineSync } from './engine-sync.js';
import { rowsOfRun, type FieldSource, type RunStepValue } from './run-rows.js';
import { prismaSql } from './sql-runner.js';

/**
 * Writes a successful run's values into every dataset its extractor's actions fill, in the
 * caller's transaction (the one that ends the run: the rows and the run's end commit together).
 * Returns the rows written per dataset id, what changed in each dataset (rows new to it, rows
 * written over an existing key: webhooks' DATASET_ROWS_CHANGED), and the engine datasets it left
 * rows pending in (their import is queued once the transaction commits).
 */
export async function fillDatasetsOfRun(
  tx: Prisma.TransactionClient,
  run: { id: string; extractorId: string },
): Promise<{
  written: Map<string, number>;
  changes: DatasetRowChanges[];
  pendingEngineDatasetIds: string[];
}> {
  const pendingEngineDatasetIds: string[] = [];
  const changes: DatasetRowChanges[] = [];
  const maps = await tx.datasetMap.findMany({
    where: {
      OR: [
        { action: { extractorId: run.extractorId } },
        { tableColumn: { table: { action: { extractorId: run.extractorId } } } },
      ],
    },
    select: {
      actionId: true,
      tableColumn: { select: { label: true, table: { select: { actionId: true } } } },
      datasetField: { select: { id: true, datasetId: true } },
    },
  });
  const written = new Map<string, number>();
  if (maps.length === 0) return { written, changes, pendingEngineDatasetIds };

  const sourcesByDataset = new Map<string, FieldSource[]>();
  for (const map of maps) {
    const actionId = map.actionId ?? map.tableColumn?.table.actionId;
    if (!actionId) continue;
    const source = {
      fieldId: map.datasetField.id,
      actionId,
      tableColumnLabel: map.tableColumn?.label ?? null,
    };
    const datasetId = map.datasetField.datasetId;
    sourcesByDataset.set(datasetId, [...(sourcesByDataset.get(datasetId) ?? []), source]);
  }
  const actionIds = [...new Set([...sourcesByDataset.values()].flat().map((source) => source.actionId))];
  const stepRows = await tx.runStep.findMany({
    where: { runId: run.id, actionId: { in: actionIds } },
    orderBy: [{ timestamp: 'asc' }, { id: 'asc' }],
    select: {
      actionId: true,
      value: true,
      fileId: true,
      tableFiles: { select: { rowIndex: true, columnIndex: true, fileId: true } },
    },
  });
  // A looped action ran several times: its last step counts.
  const steps = new Map<string, RunStepValue>();
  for (const step of stepRows) {
    if (!step.actionId) continue;
    const value = stepValueSchema.safeParse(step.value);
    steps.set(step.actionId, {
      actionId: step.actionId,
      value: value.success ? value.data : null,
      fileId: step.fileId,
      tableFiles: step.tableFiles,
    });
  }

  const sql = prismaSql(tx);
  // Datasets in id order: two runs filling the same two datasets lock them in the same order.
  const datasetIds = [...sourcesByDataset.keys()].sort();
  for (const datasetId of datasetIds) {
    const sources = sourcesByDataset.get(datasetId) ?? [];
    const rows = rowsOfRun(sources, [...steps.values()]);
    if (rows.length === 0) continue;
    // The dataset row is locked first: two runs filling one dataset count its rows one after the other.
    const dataset = await tx.dataset.update({
      where: { id: datasetId },
      data: { filledAt: new Date(), isDirty: false },
      select: { name: true, type: true, fields: { select: { id: true, type: true, isKey: true } } },
    });
    const isEngineDataset = isEngineDatasetType(dataset.type);
    const result = await fillDataset(sql, {
      datasetId,
      fields: dataset.fields,
      writtenFieldIds: sources.map((source) => source.fieldId),
      rows,
      extractorId: run.extractorId,
      runId: run.id,
      isEngineDataset,
    });
    const engineSync = isEngineDataset ? await countEngineSync(sql, datasetId) : null;
    if (result.inserted > 0 || engineSync)
      await tx.dataset.update({
        where: { id: datasetId },
        data: {
          rowCount: { increment: result.inserted },
          ...(engineSync
            ? { engineSyncPending: engineSync.pending, engineSyncRejected: engineSync.rejected }
            : {}),
        },
      });
    if (engineSync && engineSync.pending > 0) pendingEngineDatasetIds.push(datasetId);
    written.set(datasetId, result.written);
    if (result.written > 0)
      changes.push({
        datasetId,
        name: dataset.name,
        inserted: result.inserted,
        updated: result.written - result.inserted,
      });
  }
  return { written, changes, pendingEngineDatasetIds };
}

/** One dataset's rows a run wrote: new to it, and written over an existing key. */
export interface DatasetRowChanges {
  datasetId: string;
  name: string;
  inserted: number;
  updated: number;
}
