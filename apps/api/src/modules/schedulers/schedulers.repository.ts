import type { Prisma, PrismaClient } from '@pagewright/db';
import { SCHEDULER_FIRINGS_LISTED, type SaveSchedulerRequest } from '@pagewright/shared';
import {
  SCHEDULER_TIMETABLE_SELECT,
  type SchedulerTimetableColumns,
} from '@pagewright/shared/schedule-timetable';

const schedulerSelect = {
  id: true,
  name: true,
  description: true,
  ...SCHEDULER_TIMETABLE_SELECT,
  updatedAt: true,
  extractors: {
    orderBy: { createdAt: 'asc' },
    select: { extractor: { select: { id: true, name: true, extractorType: true } } },
  },
  runs: {
    orderBy: { startedAt: 'desc' },
    take: 1,
    select: { id: true, status: true, startedAt: true, extractor: { select: { name: true } } },
  },
} satisfies Prisma.SchedulerSelect;
export type SchedulerRow = Prisma.SchedulerGetPayload<{ select: typeof schedulerSelect }>;

/** What PUT stores of a save request (its extractors go to SchedulerExtractor). */
export type SchedulerFields = Omit<SaveSchedulerRequest, 'id' | 'extractorIds' | 'timeZone'> & {
  timeZone: string;
};

function columnsOf(fields: SchedulerFields) {
  const isInterval = fields.scheduleType === 'MINUTE_INTERVAL';
  return {
    name: fields.name,
    description: fields.description,
    scheduleType: fields.scheduleType,
    // Only the fields of the chosen type are kept: a timetable never carries stale ones.
    minuteInterval: isInterval ? (fields.minuteInterval ?? null) : null,
    time: isInterval ? null : (fields.time ?? null),
    daysOfWeek: fields.scheduleType === 'WEEKLY' ? [...new Set(fields.daysOfWeek ?? [])] : [],
    dayOfMonth: fields.scheduleType === 'MONTHLY' ? (fields.dayOfMonth ?? null) : null,
    timezone: fields.timeZone,
  };
}

/** Schedulers in PostgreSQL, every query scoped to the caller. */
export function createSchedulerRepository(db: PrismaClient) {
  return {
    list(userId: string) {
      return db.scheduler.findMany({
        where: { userId },
        orderBy: { createdAt: 'asc' },
        select: schedulerSelect,
      });
    },
    findOwned(userId: string, id: string) {
      return db.scheduler.findFirst({ where: { id, userId }, select: schedulerSelect });
    },
    isNameTaken(userId: string, name: string, exceptId?: string | null) {
      return db.scheduler
        .count({ where: { userId, name, ...(exceptId ? { id: { not: exceptId } } : {}) } })
        .then((count) => count > 0);
    },
    /** The caller's extractors among `ids`, with their kind. */
    ownedExtractors(userId: string, ids: readonly string[]) {
      return db.extractor.findMany({
        where: { userId, id: { in: [...ids] } },
        select: { id: true, extractorType: true },
      });
    },
    /**
     * Creates or replaces a scheduler and its extractors in one transaction; `sync` (the job
     * scheduler in Redis) runs inside it, so a failure there leaves the old scheduler untouched.
     * `checkLimits` sees the caller's other schedulers first, under a lock per user: two saves at
     * once cannot both pass a cap the two of them exceed. Null when `id` is not the caller's.
     */
    save(
      userId: string,
      id: string | null,
      fields: SchedulerFields,
      extractorIds: readonly string[],
      sync: (schedulerId: string) => Promise<void>,
      checkLimits: (others: SchedulerTimetableColumns[]) => void,
    ) {
      return db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`schedulers:${userId}`}, 0))`;
        checkLimits(
          await tx.scheduler.findMany({
            where: { userId, ...(id ? { id: { not: id } } : {}) },
            select: SCHEDULER_TIMETABLE_SELECT,
          }),
        );
        const columns = columnsOf(fields);
        let schedulerId: string;
        if (id) {
          const updated = await tx.scheduler.updateMany({ where: { id, userId }, data: columns });
          if (updated.count === 0) return null;
          await tx.schedulerExtractor.deleteMany({ where: { schedulerId: id } });
          schedulerId = id;
        } else {
          schedulerId = (await tx.scheduler.create({ data: { userId, ...columns }, select: { id: true } }))
            .id;
        }
        await tx.schedulerExtractor.createMany({
          data: extractorIds.map((extractorId) => ({ schedulerId, extractorId })),
        });
        await sync(schedulerId);
        return schedulerId;
      });
    },
    rename(userId: string, id: string, name: string, description: string) {
      return db.scheduler.updateMany({ where: { id, userId }, data: { name, description } });
    },
    /** Deletes it, with `unsync` (its job scheduler's removal) inside the transaction. */
    delete(userId: string, id: string, unsync: () => Promise<void>) {
      return db.$transaction(async (tx) => {
        const deleted = await tx.scheduler.deleteMany({ where: { id, userId } });
        if (deleted.count === 0) return false;
        await unsync();
        return true;
      });
    },
    firings(userId: string, schedulerId: string) {
      return db.schedulerFiring.findMany({
        where: { schedulerId, userId },
        orderBy: [{ scheduledFor: 'desc' }, { createdAt: 'desc' }],
        take: SCHEDULER_FIRINGS_LISTED,
        select: {
          scheduledFor: true,
          extractorId: true,
          outcome: true,
          skipReason: true,
          runId: true,
          extractor: { select: { name: true } },
          run: { select: { status: true, errorMessage: true } },
        },
      });
    },
  };
}
export type SchedulerRepository = ReturnType<typeof createSchedulerRepository>;
