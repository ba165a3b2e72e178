import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { PrismaClient } from '@pagewright/db';
import {
  MAINTENANCE_JOBS,
  PURGE_EXPIRED_SESSIONS_EVERY_MS,
  SCHEDULE_JOBS,
  formatMessage,
  jobOf,
  type FireSchedulerPayload,
  type PurgeExpiredSessionsPayload,
} from '@pagewright/shared';
import {
  SCHEDULER_TIMETABLE_SELECT,
  firingsBetween,
  jobSchedulerId,
  repeatRuleOf,
  schedulerIdOfJobScheduler,
  timetableOfScheduler,
  type Timetable,
} from '@pagewright/shared/schedule-timetable';

/**
 * A firing due this recently may still be in the hands of a worker that took its job before Redis
 * lost the rest: it is not counted as missed (its own record would otherwise conflict with ours).
 */
const IN_FLIGHT_GRACE_MS = 10_000;

export interface ReconcileCounts {
  created: number;
  changed: number;
  removed: number;
  kept: number;
  /** Schedulers whose job scheduler was gone and that missed at least one firing meanwhile. */
  missed: number;
  /** Whether the maintenance job scheduler was gone and was put back. */
  maintenanceRestored: boolean;
}

interface ReconcilerDeps {
  db: PrismaClient;
  queue: Queue<FireSchedulerPayload>;
  maintenance: Queue;
  /** The maintenance job's data (its retention), as the worker's config gives it. */
  maintenanceData: PurgeExpiredSessionsPayload;
  log: Logger;
}

/**
 * Makes BullMQ's job schedulers match the Scheduler rows (PostgreSQL is the source of truth), and
 * keeps the maintenance job scheduler: run when the worker starts, when its Redis connection comes
 * back, and every JOB_SCHEDULER_RECONCILE_SECONDS (a Redis that lost its data without a restart, a
 * FLUSHALL or an eviction, says nothing).
 *
 * - A scheduler without its job scheduler gets it back at once. Its firings due since it last fired
 *   (or was saved) did not happen: one MISSED record per extractor says how many, and when.
 * - A job scheduler that differs from its row, or whose row is gone, is changed or removed at once
 *   when the worker starts; afterwards only when the next pass still sees it so. The API writes a
 *   change to Redis inside its database transaction: a pass that reads between the two must not
 *   undo a save that is about to commit.
 *
 * Two workers doing it at once do the same idempotent work; a missed firing's record is unique per
 * (scheduler, extractor, time) like every firing's.
 */
export function createJobSchedulerReconciler(deps: ReconcilerDeps) {
  const { db, queue, log } = deps;
  /** Differences (job scheduler key) seen by the previous pass, acted on when seen again. */
  let suspects = new Set<string>();
  let isFirstPass = true;
  let running: Promise<ReconcileCounts> | undefined;

  async function restoreMaintenance(): Promise<boolean> {
    const purge = MAINTENANCE_JOBS.purgeExpiredSessions;
    if (await deps.maintenance.getJobScheduler(purge.name)) return false;
    await deps.maintenance.upsertJobScheduler(
      purge.name,
      { every: PURGE_EXPIRED_SESSIONS_EVERY_MS },
      jobOf(purge, deps.maintenanceData),
    );
    return true;
  }

  async function recordMissed(
    row: { id: string; userId: string; updatedAt: Date },
    timetable: Timetable,
    restoredAt: Date,
  ): Promise<boolean> {
    const latest = await db.schedulerFiring.aggregate({
      where: { schedulerId: row.id },
      _max: { scheduledFor: true },
    });
    const lastKnown = Math.max(row.updatedAt.getTime(), latest._max.scheduledFor?.getTime() ?? 0);
    const missed = firingsBetween(
      timetable,
      new Date(lastKnown),
      new Date(restoredAt.getTime() - IN_FLIGHT_GRACE_MS),
    );
    if (!missed) return false;
    const reason = formatMessage('scheduler.missed', {
      count: missed.count,
      first: missed.first.toISOString(),
      last: missed.last.toISOString(),
      restoredAt: restoredAt.toISOString(),
    });
    const extractors = await db.schedulerExtractor.findMany({
      where: { schedulerId: row.id },
      select: { extractorId: true },
    });
    await db.schedulerFiring.createMany({
      data: extractors.map(({ extractorId }) => ({
        schedulerId: row.id,
        extractorId,
        userId: row.userId,
        scheduledFor: missed.last,
        outcome: 'MISSED' as const,
        skipReason: reason,
      })),
      skipDuplicates: true,
    });
    log.warn(
      { schedulerId: row.id, missed: missed.count, from: missed.first, to: missed.last },
      'a scheduler lost its job scheduler: missed firings recorded',
    );
    return true;
  }

  async function pass(): Promise<ReconcileCounts> {
    const actOnEveryDifference = isFirstPass;
    isFirstPass = false;
    const counts: ReconcileCounts = {
      created: 0,
      changed: 0,
      removed: 0,
      kept: 0,
      missed: 0,
      maintenanceRestored: await restoreMaintenance(),
    };
    // Redis first: a save that lands between the two reads is then seen in PostgreSQL too.
    const existing = new Map(
      (await queue.getJobSchedulers(0, -1)).map((scheduler) => [scheduler.key, scheduler] as const),
    );
    const rows = await db.scheduler.findMany({
      select: { id: true, userId: true, updatedAt: true, ...SCHEDULER_TIMETABLE_SELECT },
    });
    const now = new Date();
    const wanted = new Set<string>();
    const seen = new Set<string>();
    for (const row of rows) {
      const key = jobSchedulerId(row.id);
      wanted.add(key);
      const timetable = timetableOfScheduler(row);
      let rule;
      try {
        rule = repeatRuleOf(timetable, now);
      } catch (error) {
        log.error({ err: error, schedulerId: row.id }, 'a scheduler has no valid timetable; not scheduled');
        continue;
      }
      const current = existing.get(key);
      const isSame =
        current !== undefined &&
        ('every' in rule
          ? Number(current.every) === rule.every && !current.pattern
          : current.pattern === rule.pattern && (current.tz ?? undefined) === rule.tz);
      if (isSame) {
        counts.kept++;
        continue;
      }
      if (current && !actOnEveryDifference && !suspects.has(key)) {
        seen.add(key);
        continue;
      }
      await queue.upsertJobScheduler(key, rule, jobOf(SCHEDULE_JOBS.fire, { schedulerId: row.id }));
      if (current) {
        counts.changed++;
        continue;
      }
      counts.created++;
      if (await recordMissed(row, timetable, now)) counts.missed++;
    }
    for (const key of existing.keys()) {
      if (!schedulerIdOfJobScheduler(key) || wanted.has(key)) continue;
      if (!actOnEveryDifference && !suspects.has(key)) {
        seen.add(key);
        continue;
      }
      await queue.removeJobScheduler(key);
      counts.removed++;
    }
    suspects = seen;
    return counts;
  }

  return {
    /** One pass; a call while one runs waits for that one instead of starting another. */
    reconcile(): Promise<ReconcileCounts> {
      running ??= pass().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
