import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { PrismaClient } from '@pagewright/db';
import { FIRE_SCHEDULER_JOB_OPTIONS, SCHEDULE_JOBS, type FireSchedulerPayload } from '@pagewright/shared';
import {
  SCHEDULER_TIMETABLE_SELECT,
  jobSchedulerId,
  repeatRuleOf,
  schedulerIdOfJobScheduler,
  timetableOfScheduler,
} from '@pagewright/shared/schedule-timetable';

/**
 * Makes BullMQ's job schedulers match the Scheduler rows (PostgreSQL is the source of truth): a
 * scheduler created or changed while Redis was empty or no worker ran gets its job scheduler, one
 * whose row is gone loses it. An unchanged job scheduler is left alone (its next job keeps its
 * time). Run at every worker start; two workers starting at once do the same idempotent work.
 */
export async function reconcileJobSchedulers(deps: {
  db: PrismaClient;
  queue: Queue<FireSchedulerPayload>;
  log: Logger;
}): Promise<{ created: number; changed: number; removed: number; kept: number }> {
  const { db, queue, log } = deps;
  const rows = await db.scheduler.findMany({ select: { id: true, ...SCHEDULER_TIMETABLE_SELECT } });
  const existing = new Map(
    (await queue.getJobSchedulers(0, -1)).map((scheduler) => [scheduler.key, scheduler] as const),
  );
  const counts = { created: 0, changed: 0, removed: 0, kept: 0 };
  const wanted = new Set<string>();
  for (const row of rows) {
    const key = jobSchedulerId(row.id);
    wanted.add(key);
    let rule;
    try {
      rule = repeatRuleOf(timetableOfScheduler(row));
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
    await queue.upsertJobScheduler(key, rule, {
      name: SCHEDULE_JOBS.fire,
      data: { schedulerId: row.id },
      opts: FIRE_SCHEDULER_JOB_OPTIONS,
    });
    if (current) counts.changed++;
    else counts.created++;
  }
  for (const key of existing.keys()) {
    if (schedulerIdOfJobScheduler(key) && !wanted.has(key)) {
      await queue.removeJobScheduler(key);
      counts.removed++;
    }
  }
  return counts;
}
