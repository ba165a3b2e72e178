import type { FastifyBaseLogger } from 'fastify';
import {
  MESSAGES,
  SCHEDULE_JOBS,
  formatMessage,
  jobOf,
  type RenameSchedulerRequest,
  type SaveSchedulerRequest,
  type SchedulerDto,
  type SchedulerFiringDto,
  type SchedulerTimeZonesResponse,
} from '@pagewright/shared';
import {
  firingsPerHour,
  jobSchedulerId,
  nextFireTimes,
  repeatRuleOf,
  timetableOfScheduler,
  type JobSchedulerQueue,
  type SchedulerTimetableColumns,
  type Timetable,
} from '@pagewright/shared/schedule-timetable';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { SchedulerRepository, SchedulerRow } from './schedulers.repository.js';

const DEFAULT_TIME_ZONE = 'UTC';

function toDto(row: SchedulerRow, now: Date): SchedulerDto {
  const lastRun = row.runs[0];
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    scheduleType: row.scheduleType,
    minuteInterval: row.minuteInterval,
    time: row.time,
    daysOfWeek: row.daysOfWeek,
    dayOfMonth: row.dayOfMonth,
    timeZone: row.timezone,
    extractorIds: row.extractors.map(({ extractor }) => extractor.id),
    extractors: row.extractors.map(({ extractor }) => extractor),
    nextRunAt: nextFireTimes(timetableOfScheduler(row), now)[0]?.toISOString() ?? null,
    lastRun: lastRun
      ? {
          runId: lastRun.id,
          extractorName: lastRun.extractor.name,
          status: lastRun.status,
          startedAt: lastRun.startedAt.toISOString(),
        }
      : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Schedulers (data spec §2, §5, §7): PostgreSQL holds them; each change also upserts or removes the
 * scheduler's BullMQ job scheduler inside the database transaction, so Redis never keeps a firing
 * the database does not know (and a Redis that is away refuses the change with 503, changing
 * nothing). The worker reconciles the two when it starts, when its Redis connection comes back and
 * every JOB_SCHEDULER_RECONCILE_SECONDS. Each account's schedulers are capped in number and in
 * firings an hour (issue 24).
 */
export function createSchedulerService(deps: {
  schedulers: SchedulerRepository;
  queue: JobSchedulerQueue;
  /** Per account: schedulers kept, and firings an hour they add up to (config). */
  limits: { schedulers: number; firingsPerHour: number };
  log: FastifyBaseLogger;
}) {
  const { schedulers, queue, limits, log } = deps;

  /** Refuses a save that would take the caller past a cap; `others` are their other schedulers. */
  function checkLimits(isNew: boolean, timetable: Timetable, others: SchedulerTimetableColumns[]): void {
    if (isNew && others.length >= limits.schedulers)
      throw new AppError('CONFLICT', formatMessage('scheduler.limit.count', { max: limits.schedulers }));
    const total = others.reduce(
      (sum, row) => sum + firingsPerHour(timetableOfScheduler(row)),
      firingsPerHour(timetable),
    );
    // Sums of 60/n and 1/24 carry rounding: a total at the cap is not over it.
    if (total > limits.firingsPerHour + 1e-6)
      throw new AppError(
        'CONFLICT',
        formatMessage('scheduler.limit.firings', { total: Math.ceil(total), max: limits.firingsPerHour }),
        timetable.scheduleType === 'MINUTE_INTERVAL' ? 'minuteInterval' : 'scheduleType',
      );
  }

  async function ownedOrNotFound(userId: string, id: string): Promise<SchedulerRow> {
    const row = await schedulers.findOwned(userId, id);
    if (!row) throw AppError.notFound(MESSAGES['scheduler.not.found']);
    return row;
  }

  /** Redis is part of a change: when it cannot take it, the change is refused whole. */
  async function inRedis(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      log.error({ err: error }, 'could not change a job scheduler');
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES['scheduler.save.error']);
    }
  }

  async function checkExtractors(userId: string, ids: readonly string[]): Promise<void> {
    const owned = await schedulers.ownedExtractors(userId, ids);
    if (owned.length !== ids.length)
      throw AppError.validation(MESSAGES['scheduler.extractor.unknown'], 'extractorIds');
    if (owned.some((extractor) => extractor.extractorType === 'NAVIGATOR'))
      throw AppError.validation(MESSAGES['scheduler.extractor.navigator'], 'extractorIds');
  }

  return {
    async list(userId: string): Promise<SchedulerDto[]> {
      const now = new Date();
      return (await schedulers.list(userId)).map((row) => toDto(row, now));
    },

    async get(userId: string, id: string): Promise<SchedulerDto> {
      return toDto(await ownedOrNotFound(userId, id), new Date());
    },

    timeZones(): SchedulerTimeZonesResponse {
      return {
        timeZones: [...new Set([DEFAULT_TIME_ZONE, ...Intl.supportedValuesOf('timeZone')])],
        serverTimeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      };
    },

    async save(userId: string, request: SaveSchedulerRequest): Promise<SchedulerDto> {
      const id = request.id ?? null;
      if (id) await ownedOrNotFound(userId, id);
      if (await schedulers.isNameTaken(userId, request.name, id))
        throw new AppError('NAME_EXISTS', MESSAGES['scheduler.conflict'], 'name');
      await checkExtractors(userId, request.extractorIds);
      const fields = { ...request, timeZone: request.timeZone ?? DEFAULT_TIME_ZONE };
      const timetable: Timetable = {
        scheduleType: fields.scheduleType,
        minuteInterval: fields.minuteInterval ?? null,
        time: fields.time ?? null,
        daysOfWeek: fields.daysOfWeek ?? [],
        dayOfMonth: fields.dayOfMonth ?? null,
        timeZone: fields.timeZone,
      };
      let savedId: string | null;
      try {
        savedId = await schedulers.save(
          userId,
          id,
          fields,
          request.extractorIds,
          (schedulerId) =>
            inRedis(() =>
              queue.upsertJobScheduler(
                jobSchedulerId(schedulerId),
                repeatRuleOf(timetable),
                jobOf(SCHEDULE_JOBS.fire, { schedulerId }),
              ),
            ),
          (others) => checkLimits(id === null, timetable, others),
        );
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('NAME_EXISTS', MESSAGES['scheduler.conflict'], 'name');
        throw error;
      }
      if (!savedId) throw AppError.notFound(MESSAGES['scheduler.not.found']);
      return toDto(await ownedOrNotFound(userId, savedId), new Date());
    },

    async rename(userId: string, request: RenameSchedulerRequest): Promise<SchedulerDto> {
      await ownedOrNotFound(userId, request.id);
      const nameTaken = () => new AppError('NAME_EXISTS', MESSAGES['scheduler.list.error.unique'], 'name');
      if (await schedulers.isNameTaken(userId, request.name, request.id)) throw nameTaken();
      try {
        await schedulers.rename(userId, request.id, request.name, request.description);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken();
        throw error;
      }
      return toDto(await ownedOrNotFound(userId, request.id), new Date());
    },

    async delete(userId: string, id: string): Promise<void> {
      const deleted = await schedulers.delete(userId, id, () =>
        inRedis(() => queue.removeJobScheduler(jobSchedulerId(id))),
      );
      if (!deleted) throw AppError.notFound(MESSAGES['scheduler.not.found']);
    },

    async firings(userId: string, id: string): Promise<SchedulerFiringDto[]> {
      await ownedOrNotFound(userId, id);
      return (await schedulers.firings(userId, id)).map((firing) => ({
        scheduledFor: firing.scheduledFor.toISOString(),
        extractorId: firing.extractorId,
        extractorName: firing.extractor.name,
        outcome: firing.outcome,
        skipReason: firing.skipReason,
        runId: firing.runId,
        runStatus: firing.run?.status ?? null,
        runErrorMessage: firing.run?.errorMessage ?? null,
      }));
    },
  };
}
export type SchedulerService = ReturnType<typeof createSchedulerService>;
