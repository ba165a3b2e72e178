import type { BulkRunItemStatus, BulkRunSource, PrismaClient } from '@pagewright/db';
import type { BulkRunCounts, BulkRunItemQuery, RunInputValues } from '@pagewright/shared';

/** Items written per statement when a bulk run is made (10,000 rows: a few statements). */
const INSERT_BATCH = 2_000;

const STATUSES_OF: Record<BulkRunItemQuery['status'], BulkRunItemStatus[] | null> = {
  all: null,
  failed: ['ERROR', 'STOPPED'],
  open: ['PENDING', 'STARTING', 'RUNNING'],
  success: ['SUCCESS'],
};

const bulkRunSelect = {
  id: true,
  extractorId: true,
  source: true,
  sourceName: true,
  status: true,
  total: true,
  createdAt: true,
  finishedAt: true,
  extractor: { select: { name: true } },
} as const;

const emptyCounts = (): BulkRunCounts => ({
  pending: 0,
  running: 0,
  success: 0,
  error: 0,
  stopped: 0,
  cancelled: 0,
});

/** Bulk runs and their items; every read and change is scoped to the caller. */
export function createBulkRunRepository(db: PrismaClient) {
  /** Items per status of each bulk run (STARTING counts as running). */
  async function countsOf(bulkRunIds: string[]): Promise<Map<string, BulkRunCounts>> {
    const counts = new Map(bulkRunIds.map((id) => [id, emptyCounts()]));
    if (bulkRunIds.length === 0) return counts;
    const groups = await db.bulkRunItem.groupBy({
      by: ['bulkRunId', 'status'],
      where: { bulkRunId: { in: bulkRunIds } },
      _count: { _all: true },
    });
    for (const group of groups) {
      const entry = counts.get(group.bulkRunId);
      if (!entry) continue;
      const key =
        group.status === 'STARTING' ? 'running' : (group.status.toLowerCase() as keyof BulkRunCounts);
      entry[key] += group._count._all;
    }
    return counts;
  }

  return {
    countsOf,

    findOwnedExtractor(userId: string, extractorId: string) {
      return db.extractor.findFirst({
        where: { id: extractorId, userId },
        select: { id: true, name: true, inputs: true },
      });
    },

    countRunning(userId: string) {
      return db.bulkRun.count({ where: { userId, status: 'RUNNING' } });
    },

    /** The bulk run and all its items, in one transaction: a failure leaves nothing behind. */
    async create(bulkRun: {
      userId: string;
      extractorId: string;
      source: BulkRunSource;
      sourceName: string;
      rows: RunInputValues[];
    }): Promise<string> {
      return db.$transaction(
        async (tx) => {
          const created = await tx.bulkRun.create({
            data: {
              userId: bulkRun.userId,
              extractorId: bulkRun.extractorId,
              source: bulkRun.source,
              sourceName: bulkRun.sourceName,
              total: bulkRun.rows.length,
            },
            select: { id: true },
          });
          for (let start = 0; start < bulkRun.rows.length; start += INSERT_BATCH)
            await tx.bulkRunItem.createMany({
              data: bulkRun.rows.slice(start, start + INSERT_BATCH).map((inputs, index) => ({
                bulkRunId: created.id,
                userId: bulkRun.userId,
                position: start + index + 1,
                inputs,
              })),
            });
          return created.id;
        },
        { timeout: 60_000 },
      );
    },

    findOwned(userId: string, bulkRunId: string) {
      return db.bulkRun.findFirst({ where: { id: bulkRunId, userId }, select: bulkRunSelect });
    },

    list(userId: string, extractorId?: string) {
      return db.bulkRun.findMany({
        where: { userId, ...(extractorId ? { extractorId } : {}) },
        orderBy: { createdAt: 'desc' },
        take: 100,
        select: bulkRunSelect,
      });
    },

    items(bulkRunId: string, query: BulkRunItemQuery) {
      const statuses = STATUSES_OF[query.status];
      return db.bulkRunItem.findMany({
        where: {
          bulkRunId,
          position: { gt: query.after },
          ...(statuses ? { status: { in: statuses } } : {}),
        },
        orderBy: { position: 'asc' },
        take: query.limit + 1,
        select: {
          position: true,
          inputs: true,
          status: true,
          runId: true,
          attempts: true,
          errorMessage: true,
          finishedAt: true,
        },
      });
    },

    /**
     * The failed (ERROR, STOPPED) items given (all of them without `position`) go back to
     * PENDING, and their bulk run runs again. Answers how many went back.
     */
    async retry(userId: string, bulkRunId: string, position?: number): Promise<number> {
      return db.$transaction(async (tx) => {
        const retried = await tx.bulkRunItem.updateMany({
          where: {
            bulkRunId,
            userId,
            status: { in: ['ERROR', 'STOPPED'] },
            ...(position === undefined ? {} : { position }),
          },
          data: { status: 'PENDING', errorMessage: null, finishedAt: null, claimedAt: null },
        });
        if (retried.count > 0)
          await tx.bulkRun.updateMany({
            where: { id: bulkRunId, userId },
            data: { status: 'RUNNING', finishedAt: null },
          });
        return retried.count;
      });
    },

    /** Items not started yet are cancelled; runs already going finish. */
    async cancel(userId: string, bulkRunId: string, message: string): Promise<void> {
      await db.$transaction([
        db.bulkRunItem.updateMany({
          where: { bulkRunId, userId, status: 'PENDING' },
          data: { status: 'CANCELLED', errorMessage: message, finishedAt: new Date() },
        }),
        db.bulkRun.updateMany({
          where: { id: bulkRunId, userId, status: 'RUNNING' },
          data: { status: 'CANCELLED', finishedAt: new Date() },
        }),
      ]);
    },
  };
}
export type BulkRunRepository = ReturnType<typeof createBulkRunRepository>;
