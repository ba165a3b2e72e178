/**
 * A scheduler's timetable as BullMQ's job schedulers run it, and the times it fires at. Not in the
 * package's index (the SPA does not need cron-parser): the API and the worker import
 * '@pagewright/shared/schedule-timetable'.
 *
 * - MINUTE_INTERVAL: `every` n minutes on the multiples of n minutes since the Unix epoch, so a
 *   60-minute interval fires on the hour, 15 at :00, :15, :30 and :45, 1440 at 00:00 UTC; the zone
 *   plays no part. (BullMQ alone would fire at once on saving, then n minutes after that.)
 * - DAILY, WEEKLY, MONTHLY: a cron pattern with the scheduler's IANA zone; daylight saving is
 *   cron-parser's (the same version BullMQ uses): a time skipped in spring fires an hour later
 *   that day, a time repeated in autumn fires once.
 * - MONTHLY on day 29-31: a month without that day fires on its last day. Day 31 is cron's `L`;
 *   days 29 and 30 need `d,L` plus a filter (`isIntendedFiring`) that drops the month's other
 *   candidate (the 31st of a long month, the 30th of a 30-day month for day 29).
 */
import { CronExpressionParser } from 'cron-parser';
import { parseSchedulerTime } from './contracts/schedulers.js';
import { DAYS_OF_WEEK, type DayOfWeek, type ScheduleType } from './enums.js';

export interface Timetable {
  scheduleType: ScheduleType;
  minuteInterval: number | null;
  time: string | null;
  daysOfWeek: readonly DayOfWeek[];
  dayOfMonth: number | null;
  timeZone: string;
}

/** A Scheduler row's timetable columns (the zone's column is `timezone`). */
export interface SchedulerTimetableColumns {
  scheduleType: ScheduleType;
  minuteInterval: number | null;
  time: string | null;
  daysOfWeek: readonly DayOfWeek[];
  dayOfMonth: number | null;
  timezone: string;
}

/** The columns to read for a timetable (a Prisma select, or the SQL names). */
export const SCHEDULER_TIMETABLE_SELECT = {
  scheduleType: true,
  minuteInterval: true,
  time: true,
  daysOfWeek: true,
  dayOfMonth: true,
  timezone: true,
} as const;

export function timetableOfScheduler(row: SchedulerTimetableColumns): Timetable {
  return {
    scheduleType: row.scheduleType,
    minuteInterval: row.minuteInterval,
    time: row.time,
    daysOfWeek: row.daysOfWeek,
    dayOfMonth: row.dayOfMonth,
    timeZone: row.timezone,
  };
}

/** BullMQ's repeat options for a timetable (`startDate`: an interval's first firing). */
export type RepeatRule = { every: number; startDate?: number } | { pattern: string; tz: string };

/** The job scheduler of a Pagewright scheduler (one each). */
export function jobSchedulerId(schedulerId: string): string {
  return `scheduler:${schedulerId}`;
}
export function schedulerIdOfJobScheduler(jobSchedulerKey: string): string | undefined {
  return jobSchedulerKey.startsWith('scheduler:') ? jobSchedulerKey.slice('scheduler:'.length) : undefined;
}

/**
 * BullMQ's repeat options. An interval starts at its next multiple after `now` (BullMQ would fire
 * it at once, then every n minutes from that moment): its firings stay on the epoch's multiples,
 * the times `nextFireTimes` gives, however often it is saved or reconciled.
 */
export function repeatRuleOf(timetable: Timetable, now: Date = new Date()): RepeatRule {
  if (timetable.scheduleType === 'MINUTE_INTERVAL') {
    const minutes = timetable.minuteInterval ?? 0;
    if (minutes < 1) throw new Error('An interval timetable needs minuteInterval');
    const every = minutes * 60_000;
    return { every, startDate: nextMultiple(now.getTime(), every) };
  }
  const time = parseSchedulerTime(timetable.time);
  if ('problem' in time) throw new Error(`A ${timetable.scheduleType} timetable needs a valid time`);
  const at = `${time.minute} ${time.hour}`;
  switch (timetable.scheduleType) {
    case 'DAILY':
      return { pattern: `${at} * * *`, tz: timetable.timeZone };
    case 'WEEKLY': {
      const days = [...new Set(timetable.daysOfWeek)].map((day) => DAYS_OF_WEEK.indexOf(day)).sort();
      if (days.length === 0) throw new Error('A weekly timetable needs days of the week');
      return { pattern: `${at} * * ${days.join(',')}`, tz: timetable.timeZone };
    }
    case 'MONTHLY': {
      const day = timetable.dayOfMonth ?? 0;
      if (day < 1 || day > 31) throw new Error('A monthly timetable needs a day of the month');
      const dayField = day <= 28 ? String(day) : day === 31 ? 'L' : `${day},L`;
      return { pattern: `${at} ${dayField} * *`, tz: timetable.timeZone };
    }
  }
}

/** The first multiple of `every` after `millis`. */
function nextMultiple(millis: number, every: number): number {
  return Math.floor(millis / every) * every + every;
}

/** Year, month (1-12) and day of an instant in a zone. */
function localDate(instant: Date, timeZone: string): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/**
 * Whether a firing of the rule at `firedAt` is one the timetable wants: false only for the extra
 * candidate of a MONTHLY day 29 or 30 (see the module comment).
 */
export function isIntendedFiring(timetable: Timetable, firedAt: Date): boolean {
  const day = timetable.dayOfMonth ?? 0;
  if (timetable.scheduleType !== 'MONTHLY' || day < 29 || day > 30) return true;
  const local = localDate(firedAt, timetable.timeZone);
  const daysInMonth = new Date(Date.UTC(local.year, local.month, 0)).getUTCDate();
  return local.day === Math.min(day, daysInMonth);
}

/** The next `count` times the timetable fires after `after` (what the dashboard shows as next run). */
export function nextFireTimes(timetable: Timetable, after: Date, count = 1): Date[] {
  const rule = repeatRuleOf(timetable, after);
  const times: Date[] = [];
  if ('every' in rule) {
    let next = nextMultiple(after.getTime(), rule.every);
    while (times.length < count) {
      times.push(new Date(next));
      next += rule.every;
    }
    return times;
  }
  const expression = CronExpressionParser.parse(rule.pattern, { currentDate: after, tz: rule.tz });
  // A filtered MONTHLY skips at most one candidate a month: a few spare iterations suffice.
  for (let guard = 0; times.length < count && guard < count * 3 + 3; guard++) {
    const next = expression.next().toDate();
    if (isIntendedFiring(timetable, next)) times.push(next);
  }
  return times;
}

/**
 * How many times a timetable fires in an hour, on average: an interval of n minutes 60/n, a day 1/24,
 * a week's days d/168, a month 12/8766 (what a per-user cap on firings counts, issue 24).
 */
export function firingsPerHour(timetable: Timetable): number {
  switch (timetable.scheduleType) {
    case 'MINUTE_INTERVAL':
      return 60 / Math.max(1, timetable.minuteInterval ?? 1);
    case 'DAILY':
      return 1 / 24;
    case 'WEEKLY':
      return new Set(timetable.daysOfWeek).size / (7 * 24);
    case 'MONTHLY':
      return 12 / (365.25 * 24);
  }
}

/**
 * The times the timetable fired, or should have, in (`after`, `until`]: how many, the first and the
 * last. An interval is counted, not listed; a cron timetable is walked up to `limit` times.
 */
export function firingsBetween(
  timetable: Timetable,
  after: Date,
  until: Date,
  limit = 10_000,
): { count: number; first: Date; last: Date } | undefined {
  if (until.getTime() <= after.getTime()) return undefined;
  const rule = repeatRuleOf(timetable, after);
  if ('every' in rule) {
    const first = nextMultiple(after.getTime(), rule.every);
    if (first > until.getTime()) return undefined;
    const last = Math.floor(until.getTime() / rule.every) * rule.every;
    return { count: (last - first) / rule.every + 1, first: new Date(first), last: new Date(last) };
  }
  let first: Date | undefined;
  let last: Date | undefined;
  let count = 0;
  let from = after;
  while (count < limit) {
    const [next] = nextFireTimes(timetable, from);
    if (!next || next.getTime() > until.getTime()) break;
    first ??= next;
    last = next;
    count++;
    from = next;
  }
  return first && last ? { count, first, last } : undefined;
}

/** What BullMQ needs of a queue to keep a scheduler's job scheduler (Queue fits). */
export interface JobSchedulerQueue {
  upsertJobScheduler(
    id: string,
    repeat: RepeatRule,
    template: { name: string; data: { schedulerId: string }; opts?: Record<string, unknown> },
  ): Promise<unknown>;
  removeJobScheduler(id: string): Promise<boolean>;
}
