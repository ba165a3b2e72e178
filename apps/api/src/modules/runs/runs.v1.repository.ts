import type { PrismaClient } from '@pagewright/db';

/** The public API's light read of a run (issue 26): what `?wait=` polls. */
export function createRunV1Repository(db: PrismaClient) {
  return {
    async ownedRunStatus(userId: string, runId: string) {
      const run = await db.run.findFirst({ where: { id: runId, userId }, select: { status: true } });
      return run?.status ?? null;
    },
  };
}
export type RunV1Repository = ReturnType<typeof createRunV1Repository>;
