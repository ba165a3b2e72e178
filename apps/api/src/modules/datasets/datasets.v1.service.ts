import type { V1Dataset } from '@pagewright/shared';
import type { DatasetV1Repository } from './datasets.v1.repository.js';

/** GET /api/v1/datasets: the key owner's datasets with their fields. */
export function createDatasetV1Service(datasets: DatasetV1Repository) {
  return {
    async list(userId: string): Promise<V1Dataset[]> {
      return (await datasets.listWithFields(userId)).map((dataset) => ({
        ...dataset,
        filledAt: dataset.filledAt?.toISOString() ?? null,
      }));
    },
  };
}
export type DatasetV1Service = ReturnType<typeof createDatasetV1Service>;
