import type { Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import { sql, type RunRefusal, type RunStarter, type SqlRunner } from '@pagewright/db';
import { MESSAGES, fireSchedulerPayloadSchema, type FireSchedulerPayload } from '@pagewright/shared';
import {
  isIntendedFiring,
  jobSchedulerId,
  timetableOfScheduler,
  type SchedulerTimetableColumns,
} from '@pagewright/shared/schedule-timetable';

const SKIP_TEXTS: Record<Exclude<RunRefusal, 'ALREADY_FIRED'>, string> = {
  EXECUTING: MESSAGES['scheduler.skip.executing'],
  PENDING_ASK: MESSAGES['scheduler.skip.pending.ask'],
  NO_ACTIONS: MESSAGES['scheduler.skip.no.actions'],
  QUEUE_UNAVAILABLE: MESSAGES['scheduler.skip.queue'],
  NOT_FOUND: MESSAGES['scheduler.extractor.unknown'],
  NOT_EXECUTABLE: MESSAGES['scheduler.extractor.navigator'],
};

/**
 * The time the timetable gave this firing: BullMQ keeps it as the job's `prevMillis` (and in its
 * id, `repeat:<scheduler>:<millis>`).
 */
export function scheduledTimeOf(job: Job): Date {
  const fromOptions = Number((job.opts as { prevMillis?: number }).prevMillis);
  if (Number.isFinite(fromOptions) && fromOptions > 0) return new Date(fromOptions);
  const fromId = Number(job.id?.split(':').at(-1));
  return new Date(Number.isFinite(fromId) && fromId > 0 ? fromId : job.timestamp);
}

/** A scheduler with its timetable and its extractors in the order they were chosen: one statement. */
const schedulerStatement = (schedulerId: string) => sql`
  SELECT s."userId", s."scheduleType"::text AS "scheduleType", s."minuteInterval", s.time,
    s."daysOfWeek"::text[] AS "daysOfWeek", s."dayOfMonth", s.timezone,
    COALESCE(
      array_agg(se."extractorId"::text ORDER BY se."createdAt", se."extractorId")
        FILTER (WHERE se."extractorId" IS NOT NULL),
      '{}'
    ) AS "extractorIds"
  FROM "Scheduler" s LEFT JOIN "SchedulerExtractor" se ON se."schedulerId" = s.id
  WHERE s.id = ${schedulerId}::uuid
  GROUP BY s.id`;

interface SchedulerToFire extends SchedulerTimetableColumns {
  userId: string;
  extractorIds: string[];
}

/** A skip, unless this firing of the extractor is already recorded (a run or an earlier skip). */
const skipStatement = (skip: {
  schedulerId: string;
  extractorId: string;
  userId: string;
  scheduledFor: Date;
  reason: string;
}) => sql`
  INSERT INTO "SchedulerFiring" (id, "schedulerId", "extractorId", "userId", "scheduledFor", outcome, "skipReason", "createdAt")
  VALUES (gen_random_uuid(), ${skip.schedulerId}::uuid, ${skip.extractorId}::uuid, ${skip.userId}::uuid,
    ${skip.scheduledFor.toISOString()}::timestamp, 'SKIPPED', ${skip.reason}, now() AT TIME ZONE 'UTC')
  ON CONFLICT ("schedulerId", "extractorId", "scheduledFor") DO NOTHING
  RETURNING id`;

export interface FiringOutcome {
  started: number;
  skipped: number;
  alreadyFired: number;
}

/**
 * One firing of a scheduler (QUEUES.schedules): a SCHEDULED run of each of its extractors through
 * the run starter Execute uses, or a recorded skip (still executing, waiting for an answer, nothing
 * saved). The starter writes the run with its firing record, unique per (scheduler, extractor,
 * time), so a firing handled twice, by two workers or a retry, starts nothing twice.
 */
export function createFireSchedulerProcessor(deps: {
  /** node-postgres: a thousand firings due at once make these statements hot. */
  sql: SqlRunner;
  starter: RunStarter;
  schedules: Queue<FireSchedulerPayload>;
  log: Logger;
}) {
  const { sql: runner, starter, log } = deps;
  return async function fireScheduler(
    job: Job,
  ): Promise<FiringOutcome | { stale: true } | { notThisDay: true }> {
    const { schedulerId } = fireSchedulerPayloadSchema.parse(job.data);
    const scheduledFor = scheduledTimeOf(job);
    const [scheduler] = await runner.query<SchedulerToFire>(schedulerStatement(schedulerId));
    if (!scheduler) {
      // Deleted while Redis could not hear of it: its job scheduler goes now.
      await deps.schedules.removeJobScheduler(jobSchedulerId(schedulerId));
      log.info({ schedulerId }, 'removed the job scheduler of a deleted scheduler');
      return { stale: true };
    }
    if (!isIntendedFiring(timetableOfScheduler(scheduler), scheduledFor)) return { notThisDay: true };
    const outcome: FiringOutcome = { started: 0, skipped: 0, alreadyFired: 0 };
    for (const extractorId of scheduler.extractorIds) {
      const result = await starter.start({
        userId: scheduler.userId,
        extractorId,
        firing: { schedulerId, scheduledFor },
      });
      if (result.started) {
        outcome.started++;
        continue;
      }
      if (result.refusal === 'ALREADY_FIRED') {
        outcome.alreadyFired++;
        continue;
      }
      if (result.refusal === 'QUEUE_UNAVAILABLE')
        log.error({ err: result.cause, schedulerId, extractorId }, 'could not queue a scheduled run');
      // A skip another handling of this firing already recorded (or a run it started) stays.
      const recorded = await runner.query(
        skipStatement({
          schedulerId,
          extractorId,
          userId: scheduler.userId,
          scheduledFor,
          reason: SKIP_TEXTS[result.refusal],
        }),
      );
      if (recorded.length > 0) outcome.skipped++;
      else outcome.alreadyFired++;
    }
    log.info({ schedulerId, scheduledFor, ...outcome }, 'scheduler fired');
    return outcome;
  };
}
