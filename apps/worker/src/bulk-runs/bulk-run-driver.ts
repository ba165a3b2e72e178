import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { PrismaClient, RunStarter, RunRefusal } from '@pagewright/db';
import {
  BULK_RUN_JOBS,
  MESSAGES,
  addJob,
  jobOf,
  runInputValuesOf,
  type AdvanceBulkRunsPayload,
} from '@pagewright/shared';
import type { RunEnd } from '../flows/run-store.js';

/** A claimed item whose run is about to start. */
interface ClaimedItem {
  id: string;
  bulkRunId: string;
  extractorId: string;
  inputs: unknown;
}

/** A STARTING item this old was claimed by a worker that died before starting its run. */
const STALE_CLAIM_MS = 120_000;
/** Passes of one advance at most (each pass fills the free slots once). */
const MAX_PASSES = 50;

/**
 * What an item becomes when its run is refused. A refusal that will not change by waiting ends
 * the item ERROR; the others (an ask waiting for its answer, Redis away) put it back PENDING, and
 * the user's advance stops until the next wake-up, so a bulk run never burns through its rows
 * while the extractor cannot run.
 */
function refusalOutcome(refusal: RunRefusal): { retryLater: true } | { retryLater: false; message: string } {
  switch (refusal) {
    case 'NOT_FOUND':
      return { retryLater: false, message: MESSAGES['bulk.run.item.extractor.gone'] };
    case 'NO_ACTIONS':
    case 'NOT_EXECUTABLE':
      return { retryLater: false, message: MESSAGES['bulk.run.item.no.actions'] };
    case 'PENDING_ASK':
    case 'EXECUTING':
    case 'QUEUE_UNAVAILABLE':
    case 'ALREADY_FIRED':
      return { retryLater: true };
  }
}

/**
 * The bulk-run driver (issue 26, item 4): starts the PENDING items of a user's bulk runs while
 * fewer than `maxRunningPerUser` of that user's items are STARTING or RUNNING, records each item's
 * end when its run ends, and ends a bulk run once nothing of it is left to run. Every step is
 * idempotent and takes a per-user lock, so several workers may advance the same user at once, and
 * the periodic sweep repairs whatever a dead worker left half done.
 */
export function createBulkRunDriver(deps: {
  db: PrismaClient;
  starter: RunStarter;
  queue: Queue<AdvanceBulkRunsPayload>;
  maxRunningPerUser: number;
  log: Logger;
}) {
  const { db, starter, queue, maxRunningPerUser, log } = deps;

  /** Claims (STARTING) as many PENDING items as the user has room for, oldest bulk run first. */
  function claim(userId: string): Promise<ClaimedItem[]> {
    return db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`bulk-runs:${userId}`}))`;
      const [flight] = await tx.$queryRaw<{ count: number }[]>`
        SELECT count(*)::int AS count FROM "BulkRunItem"
        WHERE "userId" = ${userId}::uuid AND status IN ('STARTING', 'RUNNING')`;
      const room = maxRunningPerUser - (flight?.count ?? 0);
      if (room <= 0) return [];
      return tx.$queryRaw<ClaimedItem[]>`
        UPDATE "BulkRunItem" i SET status = 'STARTING', "claimedAt" = now() AT TIME ZONE 'UTC'
        FROM "BulkRun" b
        WHERE b.id = i."bulkRunId" AND i.id IN (
          SELECT pending.id FROM "BulkRunItem" pending
          JOIN "BulkRun" owner ON owner.id = pending."bulkRunId"
          WHERE pending."userId" = ${userId}::uuid AND pending.status = 'PENDING' AND owner.status = 'RUNNING'
          ORDER BY owner."createdAt", pending.position
          LIMIT ${room}
        )
        RETURNING i.id, i."bulkRunId", b."extractorId", i.inputs`;
    });
  }

  /** Ends the given bulk runs (or, with none given, all the user's) that have nothing left to run. */
  async function finishDone(where: { bulkRunIds: string[] } | { userId: string }): Promise<void> {
    const ids = 'bulkRunIds' in where ? where.bulkRunIds : null;
    const userId = 'userId' in where ? where.userId : null;
    await db.$executeRaw`
      UPDATE "BulkRun" b SET status = 'FINISHED', "finishedAt" = now() AT TIME ZONE 'UTC'
      WHERE b.status = 'RUNNING'
        AND (${ids}::uuid[] IS NULL OR b.id = ANY(${ids}::uuid[]))
        AND (${userId}::uuid IS NULL OR b."userId" = ${userId}::uuid)
        AND NOT EXISTS (
          SELECT 1 FROM "BulkRunItem" i
          WHERE i."bulkRunId" = b.id AND i.status IN ('PENDING', 'STARTING', 'RUNNING')
        )`;
  }

  /** Starts one claimed item's run; answers false when the user's bulk runs must wait for now. */
  async function startItem(userId: string, item: ClaimedItem): Promise<boolean> {
    const result = await starter.start({
      userId,
      extractorId: item.extractorId,
      inputs: runInputValuesOf(item.inputs),
      bulkItemId: item.id,
    });
    if (result.started) return true;
    const outcome = refusalOutcome(result.refusal);
    if (outcome.retryLater) {
      await db.bulkRunItem.updateMany({
        where: { id: item.id, status: 'STARTING' },
        data: { status: 'PENDING', claimedAt: null },
      });
      log.info(
        { bulkRunId: item.bulkRunId, refusal: result.refusal },
        'a bulk run waits: its run was refused',
      );
      return false;
    }
    await db.bulkRunItem.updateMany({
      where: { id: item.id, status: 'STARTING' },
      data: { status: 'ERROR', errorMessage: outcome.message, finishedAt: new Date() },
    });
    return true;
  }

  /** Fills the user's free slots with PENDING items' runs. */
  async function advance(userId: string): Promise<number> {
    let started = 0;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const claimed = await claim(userId);
      if (claimed.length === 0) break;
      let blocked = false;
      for (const item of claimed) {
        if (blocked) {
          // Not started this pass: back to PENDING for the next wake-up.
          await db.bulkRunItem.updateMany({
            where: { id: item.id, status: 'STARTING' },
            data: { status: 'PENDING', claimedAt: null },
          });
          continue;
        }
        try {
          if (await startItem(userId, item)) started++;
          else blocked = true;
        } catch (error) {
          // The database or Redis failed mid-start: the item goes back, the job retries.
          await db.bulkRunItem
            .updateMany({
              where: { id: item.id, status: 'STARTING' },
              data: { status: 'PENDING', claimedAt: null },
            })
            .catch(() => undefined);
          throw error;
        }
      }
      await finishDone({ bulkRunIds: [...new Set(claimed.map((item) => item.bulkRunId))] });
      if (blocked) break;
    }
    return started;
  }

  /** Queues an advance of the user's bulk runs (the bulk-run queue's worker runs it). */
  async function wake(userId: string): Promise<void> {
    await addJob(queue, BULK_RUN_JOBS.advance, { userId });
  }

  return {
    advance,
    wake,

    /**
     * A run ended: if it was a bulk run's item, the item takes its end, its bulk run ends when it
     * was the last, and the owner's next items are woken.
     */
    async runEnded(runId: string, end: RunEnd): Promise<void> {
      const [item] = await db.$queryRaw<{ userId: string; bulkRunId: string }[]>`
        UPDATE "BulkRunItem" SET status = ${end.status}::text::"BulkRunItemStatus",
          "finishedAt" = now() AT TIME ZONE 'UTC', "errorMessage" = left(${end.errorMessage ?? null}::text, 1024)
        WHERE "runId" = ${runId}::uuid AND status = 'RUNNING'
        RETURNING "userId", "bulkRunId"`;
      if (!item) return;
      await finishDone({ bulkRunIds: [item.bulkRunId] });
      await wake(item.userId);
    },

    /**
     * The periodic repair: items whose run ended unheard take the run's end (or ERROR when the
     * run is gone), claims a dead worker left go back to PENDING, finished bulk runs end, and
     * every user with pending items is advanced.
     */
    async sweep(): Promise<{ repaired: number; users: number }> {
      const ended = await db.$executeRaw`
        UPDATE "BulkRunItem" i SET status = r.status::text::"BulkRunItemStatus",
          "finishedAt" = COALESCE(r."finishedAt", now() AT TIME ZONE 'UTC'),
          "errorMessage" = left(r."errorMessage", 1024)
        FROM "Run" r
        WHERE r.id = i."runId" AND i.status = 'RUNNING' AND r.status <> 'EXECUTING'`;
      const orphaned = await db.bulkRunItem.updateMany({
        where: { status: 'RUNNING', runId: null },
        data: {
          status: 'ERROR',
          errorMessage: MESSAGES['bulk.run.item.extractor.gone'],
          finishedAt: new Date(),
        },
      });
      const stale = await db.bulkRunItem.updateMany({
        where: { status: 'STARTING', claimedAt: { lt: new Date(Date.now() - STALE_CLAIM_MS) } },
        data: { status: 'PENDING', claimedAt: null },
      });
      const users = await db.$queryRaw<{ userId: string }[]>`
        SELECT DISTINCT b."userId" FROM "BulkRun" b WHERE b.status = 'RUNNING'`;
      for (const { userId } of users) {
        await finishDone({ userId });
        await advance(userId);
      }
      const repaired = ended + orphaned.count + stale.count;
      if (repaired > 0) log.warn({ repaired }, 'bulk-run items repaired by the sweep');
      return { repaired, users: users.length };
    },
  };
}

/** Keeps the sweep's job scheduler (idempotent: run at start and when Redis comes back). */
export async function scheduleBulkRunSweep(queue: Queue, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(
    BULK_RUN_JOBS.sweep.name,
    { every: everyMs },
    jobOf(BULK_RUN_JOBS.sweep, {}),
  );
}
