import * as z from './zod.js';
import {
  DESCRIPTION_MAX_LENGTH,
  NAME_MAX_LENGTH,
  SCHEDULER_DAY_OF_MONTH_MAX,
  SCHEDULER_INTERVAL_MAX,
  SCHEDULER_INTERVAL_MIN,
} from '../constants.js';
import { DAYS_OF_WEEK, EXTRACTOR_TYPES, RUN_STATUSES, SCHEDULE_TYPES } from '../enums.js';
import { MESSAGES } from '../messages.js';
import { isOneLine } from '../validation.js';

/**
 * The /extractor/scheduler calls (data spec §7). A scheduler runs its extractors (and insertors)
 * on a timetable in its own IANA time zone; the wizard's first page (name, description) stores
 * nothing, PUT saves everything at once.
 */

const schedulerName = z
  .string({ error: MESSAGES['scheduler.list.error.name'] })
  .trim()
  .min(1, MESSAGES['scheduler.list.error.name'])
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`)
  .refine(isOneLine, MESSAGES['error.name.line.break']);
const schedulerDescription = z
  .string({ error: MESSAGES['scheduler.list.error.description'] })
  .trim()
  .min(1, MESSAGES['scheduler.list.error.description'])
  .max(DESCRIPTION_MAX_LENGTH, `Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`);

/** "HH:MM:00" as the spec sends it (hour 0-23, minute 0-59). */
export const SCHEDULER_TIME_PATTERN = /^(\d{2}):(\d{2}):00$/u;

/** Hour and minute of a "HH:MM:00" time, or which of the two is wrong. */
export function parseSchedulerTime(
  time: string | null | undefined,
): { hour: number; minute: number } | { problem: 'hour' | 'minute' } {
  const match = SCHEDULER_TIME_PATTERN.exec(time ?? '');
  if (!match) return { problem: /^\d{2}:/u.test(time ?? '') ? 'minute' : 'hour' };
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour > 23) return { problem: 'hour' };
  if (minute > 59) return { problem: 'minute' };
  return { hour, minute };
}

/** A zone the server's Intl knows (the list GET /extractor/scheduler/timezone returns). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** What makes a timetable: the fields that apply depend on the type (the others are ignored). */
export const schedulerTimetableShape = {
  scheduleType: z.enum(SCHEDULE_TYPES, { error: MESSAGES['scheduler.frequency.required'] }),
  minuteInterval: z
    .number({ error: MESSAGES['scheduler.interval.required'] })
    .int(MESSAGES['scheduler.interval.required'])
    .min(SCHEDULER_INTERVAL_MIN, MESSAGES['scheduler.interval.required'])
    .max(SCHEDULER_INTERVAL_MAX, MESSAGES['scheduler.interval.required'])
    .nullish(),
  time: z.string().max(8).nullish(),
  daysOfWeek: z.array(z.enum(DAYS_OF_WEEK)).max(7).nullish(),
  dayOfMonth: z
    .number({ error: MESSAGES['scheduler.day.of.month.required'] })
    .int(MESSAGES['scheduler.day.of.month.required'])
    .min(1, MESSAGES['scheduler.day.of.month.required'])
    .max(SCHEDULER_DAY_OF_MONTH_MAX, MESSAGES['scheduler.day.of.month.required'])
    .nullish(),
  /** IANA zone the timetable counts in (beyond the spec's payload): the browser's by default. */
  timeZone: z.string().max(64).refine(isKnownTimeZone, MESSAGES['scheduler.time.zone.unknown']).optional(),
};

/** PUT /extractor/scheduler/: creates (no id) or replaces (id) a scheduler. */
export const saveSchedulerRequestSchema = z
  .object({
    id: z.string().uuid().nullish(),
    name: schedulerName,
    description: schedulerDescription,
    extractorIds: z
      .array(z.string().uuid(), { error: MESSAGES['scheduler.extractors.required'] })
      .min(1, MESSAGES['scheduler.extractors.required'])
      .max(500)
      .transform((ids) => [...new Set(ids)]),
    ...schedulerTimetableShape,
  })
  .superRefine((value, context) => {
    const problem = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (value.scheduleType === 'MINUTE_INTERVAL') {
      if (value.minuteInterval == null) problem('minuteInterval', MESSAGES['scheduler.interval.required']);
      return;
    }
    const time = parseSchedulerTime(value.time);
    if ('problem' in time)
      problem(
        'time',
        MESSAGES[time.problem === 'hour' ? 'scheduler.hour.required' : 'scheduler.minute.required'],
      );
    if (value.scheduleType === 'WEEKLY' && (value.daysOfWeek ?? []).length === 0)
      problem('daysOfWeek', MESSAGES['scheduler.day.of.week.required']);
    if (value.scheduleType === 'MONTHLY' && value.dayOfMonth == null)
      problem('dayOfMonth', MESSAGES['scheduler.day.of.month.required']);
  });
export type SaveSchedulerRequest = z.infer<typeof saveSchedulerRequestSchema>;

/** POST /extractor/scheduler/rename. */
export const renameSchedulerRequestSchema = z.object({
  id: z.string().uuid(),
  name: schedulerName,
  description: schedulerDescription,
});
export type RenameSchedulerRequest = z.infer<typeof renameSchedulerRequestSchema>;

export const schedulerIdParamsSchema = z.object({ id: z.string().uuid() });

/** An extractor a scheduler runs (and one offered on the wizard's extractor page). */
export const schedulerExtractorSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  extractorType: z.enum(EXTRACTOR_TYPES),
});
export type SchedulerExtractor = z.infer<typeof schedulerExtractorSchema>;

/** GET /extractor/scheduler/ (each) and GET /extractor/scheduler/{id}. */
export const schedulerDtoSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  scheduleType: z.enum(SCHEDULE_TYPES),
  minuteInterval: z.number().int().nullable(),
  /** "HH:MM:00" in `timeZone`. */
  time: z.string().nullable(),
  daysOfWeek: z.array(z.enum(DAYS_OF_WEEK)),
  dayOfMonth: z.number().int().nullable(),
  timeZone: z.string(),
  extractorIds: z.array(z.string().uuid()),
  extractors: z.array(schedulerExtractorSchema),
  /** When it fires next (ISO 8601), as the timetable computes it. */
  nextRunAt: z.string().nullable(),
  /** The latest run it started, and that run's state. */
  lastRun: z
    .object({
      runId: z.string().uuid(),
      extractorName: z.string(),
      status: z.enum(RUN_STATUSES),
      startedAt: z.string(),
    })
    .nullable(),
  updatedAt: z.string(),
});
export type SchedulerDto = z.infer<typeof schedulerDtoSchema>;

/** GET /extractor/scheduler/timezone: every IANA zone this server knows, and its own. */
export const schedulerTimeZonesResponseSchema = z.object({
  timeZones: z.array(z.string()),
  serverTimeZone: z.string(),
});
export type SchedulerTimeZonesResponse = z.infer<typeof schedulerTimeZonesResponseSchema>;

/** MISSED: Redis lost the job scheduler; the record says how many firings did not happen (issue 24). */
export const SCHEDULER_FIRING_OUTCOMES = ['STARTED', 'SKIPPED', 'MISSED'] as const;

/**
 * GET /extractor/scheduler/{id}/firings (beyond the spec): what each firing did for each of the
 * scheduler's extractors, newest first — the run it started, or why it skipped.
 */
export const schedulerFiringDtoSchema = z.object({
  scheduledFor: z.string(),
  extractorId: z.string().uuid(),
  extractorName: z.string(),
  outcome: z.enum(SCHEDULER_FIRING_OUTCOMES),
  skipReason: z.string().nullable(),
  runId: z.string().uuid().nullable(),
  runStatus: z.enum(RUN_STATUSES).nullable(),
  runErrorMessage: z.string().nullable(),
});
export type SchedulerFiringDto = z.infer<typeof schedulerFiringDtoSchema>;
export const SCHEDULER_FIRINGS_LISTED = 100;
