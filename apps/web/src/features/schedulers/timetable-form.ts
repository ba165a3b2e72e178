import {
  MESSAGES,
  SCHEDULER_DAY_OF_MONTH_MAX,
  SCHEDULER_INTERVAL_MAX,
  SCHEDULER_INTERVAL_MIN,
  type DayOfWeek,
  type SaveSchedulerRequest,
  type ScheduleType,
  type SchedulerDto,
} from '@pagewright/shared';
import type { FieldErrors } from '../../lib/form-errors';

/** The frequency step as typed: numbers stay text until sent (an empty field is not a 0). */
export interface TimetableForm {
  scheduleType: ScheduleType | null;
  minuteInterval: string;
  hour: string;
  minute: string;
  daysOfWeek: DayOfWeek[];
  dayOfMonth: string;
  timeZone: string;
}

export type NumberField = 'minuteInterval' | 'hour' | 'minute' | 'dayOfMonth';
export type TimetableField = 'scheduleType' | NumberField | 'daysOfWeek';
export type TimetableErrors = FieldErrors<TimetableField>;

/** Data spec §5: interval 1-1440, hour 0-23, minute 0-59, day of month 1-31. */
export const NUMBER_RANGES: Record<NumberField, { min: number; max: number }> = {
  minuteInterval: { min: SCHEDULER_INTERVAL_MIN, max: SCHEDULER_INTERVAL_MAX },
  hour: { min: 0, max: 23 },
  minute: { min: 0, max: 59 },
  dayOfMonth: { min: 1, max: SCHEDULER_DAY_OF_MONTH_MAX },
};
export const NUMBER_MAX_LENGTH = 4;

/** Keys a number field refuses (spec §5: minus, plus and 'e'; the separators too: digits only). */
export const BLOCKED_NUMBER_KEYS: ReadonlySet<string> = new Set(['-', '+', 'e', 'E', '.', ',']);

/**
 * A number field's text after a change: digits only, at most 4 of them, and never above the
 * field's maximum. Leading zeros stay ("09" for an hour reads as typed).
 */
export function typedNumber(raw: string, field: NumberField): string {
  const digits = raw.replace(/\D/gu, '').slice(0, NUMBER_MAX_LENGTH);
  if (digits === '') return '';
  const { max } = NUMBER_RANGES[field];
  return Number(digits) > max ? String(max) : digits;
}

function isInRange(text: string, field: NumberField): boolean {
  if (!/^\d+$/u.test(text)) return false;
  const { min, max } = NUMBER_RANGES[field];
  const value = Number(text);
  return value >= min && value <= max;
}

/** The spec's messages for what the chosen frequency still lacks (each under its field). */
export function timetableErrors(form: TimetableForm): TimetableErrors {
  const errors: TimetableErrors = {};
  if (form.scheduleType === null) return { scheduleType: MESSAGES['scheduler.frequency.required'] };
  if (form.scheduleType === 'MINUTE_INTERVAL') {
    if (!isInRange(form.minuteInterval, 'minuteInterval'))
      errors.minuteInterval = MESSAGES['scheduler.interval.required'];
    return errors;
  }
  if (!isInRange(form.hour, 'hour')) errors.hour = MESSAGES['scheduler.hour.required'];
  if (!isInRange(form.minute, 'minute')) errors.minute = MESSAGES['scheduler.minute.required'];
  if (form.scheduleType === 'WEEKLY' && form.daysOfWeek.length === 0)
    errors.daysOfWeek = MESSAGES['scheduler.day.of.week.required'];
  if (form.scheduleType === 'MONTHLY' && !isInRange(form.dayOfMonth, 'dayOfMonth'))
    errors.dayOfMonth = MESSAGES['scheduler.day.of.month.required'];
  return errors;
}

const twoDigits = (text: string) => String(Number(text)).padStart(2, '0');

type TimetableRequest = Pick<
  SaveSchedulerRequest,
  'scheduleType' | 'minuteInterval' | 'time' | 'daysOfWeek' | 'dayOfMonth' | 'timeZone'
>;

/** What PUT sends of a checked form: only the fields its frequency uses (the others null or empty). */
export function timetableRequestOf(form: TimetableForm & { scheduleType: ScheduleType }): TimetableRequest {
  const type = form.scheduleType;
  return {
    scheduleType: type,
    minuteInterval: type === 'MINUTE_INTERVAL' ? Number(form.minuteInterval) : null,
    time: type === 'MINUTE_INTERVAL' ? null : `${twoDigits(form.hour)}:${twoDigits(form.minute)}:00`,
    daysOfWeek: type === 'WEEKLY' ? form.daysOfWeek : [],
    dayOfMonth: type === 'MONTHLY' ? Number(form.dayOfMonth) : null,
    timeZone: form.timeZone,
  };
}

/** An empty form counting in `timeZone`, or a saved scheduler's values. */
export function timetableFormOf(saved: SchedulerDto | null, timeZone: string): TimetableForm {
  if (!saved)
    return {
      scheduleType: null,
      minuteInterval: '',
      hour: '',
      minute: '',
      daysOfWeek: [],
      dayOfMonth: '',
      timeZone,
    };
  const [hour = '', minute = ''] = (saved.time ?? '').split(':');
  return {
    scheduleType: saved.scheduleType,
    minuteInterval: saved.minuteInterval === null ? '' : String(saved.minuteInterval),
    hour,
    minute,
    daysOfWeek: saved.daysOfWeek,
    dayOfMonth: saved.dayOfMonth === null ? '' : String(saved.dayOfMonth),
    timeZone: saved.timeZone,
  };
}
