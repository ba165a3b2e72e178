import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n';
import { dateTimeText, frequencyText, type TimetableFields } from './frequency-text';

const timetable = (fields: Partial<TimetableFields>): TimetableFields => ({
  scheduleType: 'DAILY',
  minuteInterval: null,
  time: null,
  daysOfWeek: [],
  dayOfMonth: null,
  timeZone: 'UTC',
  ...fields,
});
const words = (fields: Partial<TimetableFields>) => frequencyText(timetable(fields), i18n.t);

describe('frequencyText', () => {
  it('says an interval in minutes, without a zone', () => {
    expect(words({ scheduleType: 'MINUTE_INTERVAL', minuteInterval: 15, timeZone: 'Europe/Berlin' })).toBe(
      'Every 15 minutes',
    );
    expect(words({ scheduleType: 'MINUTE_INTERVAL', minuteInterval: 1 })).toBe('Every minute');
    expect(words({ scheduleType: 'MINUTE_INTERVAL', minuteInterval: 1440 })).toBe('Every 1440 minutes');
  });

  it('says a daily time with its zone', () => {
    expect(words({ time: '09:30:00', timeZone: 'Europe/Berlin' })).toBe('Daily at 09:30 (Europe/Berlin)');
  });

  it('names the days of a week in calendar order, Sunday first', () => {
    expect(
      words({ scheduleType: 'WEEKLY', time: '08:00:00', daysOfWeek: ['FRIDAY', 'MONDAY', 'SUNDAY'] }),
    ).toBe('Weekly on Sunday, Monday, Friday at 08:00 (UTC)');
    expect(words({ scheduleType: 'WEEKLY', time: '08:00:00', daysOfWeek: ['MONDAY', 'FRIDAY'] })).toBe(
      'Weekly on Monday, Friday at 08:00 (UTC)',
    );
  });

  it('says a day of the month; days 29 to 31 say which months run on their last day', () => {
    const monthly = (dayOfMonth: number) =>
      words({ scheduleType: 'MONTHLY', time: '07:00:00', dayOfMonth, timeZone: 'UTC' });
    expect(monthly(1)).toBe('Monthly on day 1 at 07:00 (UTC)');
    expect(monthly(28)).toBe('Monthly on day 28 at 07:00 (UTC)');
    expect(monthly(29)).toBe('Monthly on day 29 at 07:00 (UTC) — last day of February in common years');
    expect(monthly(30)).toBe('Monthly on day 30 at 07:00 (UTC) — last day in February');
    expect(monthly(31)).toBe('Monthly on day 31 at 07:00 (UTC) — last day in shorter months');
  });
});

describe('dateTimeText', () => {
  it('tells the instant in the scheduler’s zone and names the zone', () => {
    const berlin = dateTimeText('2025-01-15T08:30:00.000Z', 'Europe/Berlin');
    const tokyo = dateTimeText('2025-01-15T08:30:00.000Z', 'Asia/Tokyo');
    expect(berlin).toMatch(/^01\/15\/25, 09:30:00\s?AM \(Europe\/Berlin\)$/u);
    expect(tokyo).toMatch(/^01\/15\/25, 05:30:00\s?PM \(Asia\/Tokyo\)$/u);
  });

  it('shows what it cannot read as it came', () => {
    expect(dateTimeText('soon', 'UTC')).toBe('soon');
  });
});
