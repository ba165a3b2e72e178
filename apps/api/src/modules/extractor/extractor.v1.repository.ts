import type { PrismaClient } from '@pagewright/db';

/** The public API's reads of extractors (issue 26); every read is the key owner's. */
export function createExtractorV1Repository(db: PrismaClient) {
  return {
    /** The owner's items as the dashboard lists them (a draft never saved nor run is not), with their latest run. */
    listWithLastRun(userId: string) {
      return db.extractor.findMany({
        where: {
          userId,
          OR: [{ status: { not: null } }, { actions: { some: {} } }, { runs: { some: {} } }],
        },
        orderBy: [{ extractorType: 'asc' }, { createdAt: 'asc' }],
        select: {
          id: true,
          name: true,
          extractorType: true,
          status: true,
          runs: {
            where: { trigger: { not: 'VALIDATION' } },
            orderBy: { startedAt: 'desc' },
            take: 1,
            select: { id: true, status: true, startedAt: true, finishedAt: true },
          },
        },
      });
    },
  };
}
export type ExtractorV1Repository = ReturnType<typeof createExtractorV1Repository>;
