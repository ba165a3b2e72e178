import type { PrismaClient } from '@pagewright/db';

/** The public API's reads of datasets (issue 26); every read is the key owner's. */
export function createDatasetV1Repository(db: PrismaClient) {
  return {
    listWithFields(userId: string) {
      return db.dataset.findMany({
        where: { userId },
        orderBy: { createdAt: 'asc' },
        select: {
          id: true,
          name: true,
          description: true,
          type: true,
          rowCount: true,
          filledAt: true,
          fields: { orderBy: { sequence: 'asc' }, select: { id: true, name: true, type: true, isKey: true } },
        },
      });
    },
  };
}
export type DatasetV1Repository = ReturnType<typeof createDatasetV1Repository>;
