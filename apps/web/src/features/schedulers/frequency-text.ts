import type { TFunction } from 'i18next';
import { DAYS_OF_WEEK, type SchedulerDto } from '@pagewright/shared';
import { zonedDateTimeText } from '../../lib/zoned-time';

export type TimetableFields = Pick<
  SchedulerDto,
  'scheduleType' | 'minuteInterval' | 'time' | 'daysOfWeek' | 'dayOfMonth' | 'timeZone'
>;

/** "HH:MM" of the API's "HH:MM:00". */
function clockOf(time: string | null): string {
  return (time ?? '').slice(0, 5);
}

/**
 * A timetable in words for the dashboard: "Every 15 minutes", "Daily at 09:30 (Europe/Berlin)",
 * "Weekly on Monday, Friday at 08:00 (UTC)", "Monthly on day 31 at 07:00 (UTC) — last day in
 * shorter months". An interval counts from the epoch in UTC on the server, so it names no zone.
 */
export function frequencyText(timetable: TimetableFields, t: TFunction): string {
  const at = { time: clockOf(timetable.time), zone: timetable.timeZone };
  switch (timetable.scheduleType) {
    case 'MINUTE_INTERVAL': {
      const count = timetable.minuteInterval ?? 0;
      return count === 1 ? t('schedulers.every.minute') : t('schedulers.every.minutes', { count });
    }
    case 'DAILY':
      return t('schedulers.daily', at);
    case 'WEEKLY': {
      const days = DAYS_OF_WEEK.filter((day) => timetable.daysOfWeek.includes(day))
        .map((day) => t(`schedulers.day.${day}`))
        .join(', ');
      return t('schedulers.weekly', { ...at, days });
    }
    case 'MONTHLY': {
      const day = timetable.dayOfMonth ?? 0;
      const frequency = t('schedulers.monthly', { ...at, day });
      // Days some months lack fire on those months' last day (the server's rule).
      if (day === 29 || day === 30 || day === 31) return t(`schedulers.monthly.short.${day}`, { frequency });
      return frequency;
    }
  }
}

/** An instant told in `timeZone` (the scheduler's), with the zone's name: the dashboard's one format. */
export function dateTimeText(iso: string, timeZone: string): string {
  return zonedDateTimeText(iso, timeZone);
}
