import { describe, expect, it } from 'vitest';
import {
  firingsBetween,
  firingsPerHour,
  isIntendedFiring,
  jobSchedulerId,
  nextFireTimes,
  repeatRuleOf,
  schedulerIdOfJobScheduler,
  type Timetable,
} from './schedule-timetable.js';

const BERLIN = 'Europe/Berlin';
const base: Timetable = {
  scheduleType: 'DAILY',
  minuteInterval: null,
  time: null,
  daysOfWeek: [],
  dayOfMonth: null,
  timeZone: BERLIN,
};
const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe('repeat rules', () => {
  it('gives BullMQ every n minutes for an interval, a cron pattern with the zone otherwise', () => {
    expect(
      repeatRuleOf(
        { ...base, scheduleType: 'MINUTE_INTERVAL', minuteInterval: 15 },
        new Date('2027-05-01T10:07:30Z'),
      ),
    ).toEqual({ every: 900_000, startDate: Date.parse('2027-05-01T10:15:00Z') });
    expect(repeatRuleOf({ ...base, time: '09:30:00' })).toEqual({ pattern: '30 9 * * *', tz: BERLIN });
    expect(
      repeatRuleOf({ ...base, scheduleType: 'WEEKLY', time: '08:05:00', daysOfWeek: ['FRIDAY', 'MONDAY'] }),
    ).toEqual({ pattern: '5 8 * * 1,5', tz: BERLIN });
    const monthly = (dayOfMonth: number) =>
      repeatRuleOf({ ...base, scheduleType: 'MONTHLY', time: '07:00:00', dayOfMonth });
    expect(monthly(15)).toEqual({ pattern: '0 7 15 * *', tz: BERLIN });
    expect(monthly(30)).toEqual({ pattern: '0 7 30,L * *', tz: BERLIN });
    expect(monthly(31)).toEqual({ pattern: '0 7 L * *', tz: BERLIN });
  });

  it('refuses a timetable missing what its type needs', () => {
    expect(() => repeatRuleOf({ ...base, scheduleType: 'MINUTE_INTERVAL' })).toThrow(/minuteInterval/u);
    expect(() => repeatRuleOf({ ...base, time: '24:00:00' })).toThrow(/time/u);
    expect(() => repeatRuleOf({ ...base, scheduleType: 'WEEKLY', time: '08:00:00' })).toThrow(/days/u);
  });

  it('names one job scheduler per scheduler and reads the id back', () => {
    const id = '7b0c2b8e-5a57-4f39-9d7e-3d3f4e0a1c11';
    expect(schedulerIdOfJobScheduler(jobSchedulerId(id))).toBe(id);
    expect(schedulerIdOfJobScheduler('purge-expired-sessions')).toBeUndefined();
  });
});

describe('next fire times in Europe/Berlin', () => {
  it('counts an interval from the epoch, whatever the zone', () => {
    const timetable: Timetable = { ...base, scheduleType: 'MINUTE_INTERVAL', minuteInterval: 90 };
    expect(iso(nextFireTimes(timetable, new Date('2027-03-28T00:59:00Z'), 3))).toEqual([
      '2027-03-28T01:30:00.000Z',
      '2027-03-28T03:00:00.000Z',
      '2027-03-28T04:30:00.000Z',
    ]);
  });

  it('daily: keeps local time across spring forward (UTC+1 → UTC+2) and fall back', () => {
    const daily: Timetable = { ...base, time: '09:30:00' };
    expect(iso(nextFireTimes(daily, new Date('2027-03-27T12:00:00Z'), 2))).toEqual([
      '2027-03-28T07:30:00.000Z', // CEST: 09:30 local
      '2027-03-29T07:30:00.000Z',
    ]);
    expect(iso(nextFireTimes(daily, new Date('2027-10-30T12:00:00Z'), 2))).toEqual([
      '2027-10-31T08:30:00.000Z', // CET again: 09:30 local
      '2027-11-01T08:30:00.000Z',
    ]);
  });

  it('daily at a time the clocks skip or repeat: an hour later that day, and once', () => {
    const night: Timetable = { ...base, time: '02:30:00' };
    // 28 March 2027: 02:00 → 03:00, so 02:30 does not exist; it fires at 03:30 CEST.
    expect(iso(nextFireTimes(night, new Date('2027-03-27T12:00:00Z'), 2))).toEqual([
      '2027-03-28T01:30:00.000Z',
      '2027-03-29T00:30:00.000Z',
    ]);
    // 31 October 2027: 03:00 → 02:00, so 02:30 happens twice; it fires once, the first time.
    expect(iso(nextFireTimes(night, new Date('2027-10-30T12:00:00Z'), 2))).toEqual([
      '2027-10-31T00:30:00.000Z',
      '2027-11-01T01:30:00.000Z',
    ]);
  });

  it('weekly on chosen days across both changes', () => {
    const weekly: Timetable = {
      ...base,
      scheduleType: 'WEEKLY',
      time: '08:00:00',
      daysOfWeek: ['SUNDAY', 'WEDNESDAY'],
    };
    expect(iso(nextFireTimes(weekly, new Date('2027-03-26T00:00:00Z'), 3))).toEqual([
      '2027-03-28T06:00:00.000Z', // Sunday, the day the clocks go forward
      '2027-03-31T06:00:00.000Z',
      '2027-04-04T06:00:00.000Z',
    ]);
    expect(iso(nextFireTimes(weekly, new Date('2027-10-29T00:00:00Z'), 2))).toEqual([
      '2027-10-31T07:00:00.000Z', // Sunday, the day the clocks go back
      '2027-11-03T07:00:00.000Z',
    ]);
  });

  it('monthly across both changes', () => {
    const monthly: Timetable = { ...base, scheduleType: 'MONTHLY', time: '10:00:00', dayOfMonth: 28 };
    expect(iso(nextFireTimes(monthly, new Date('2027-02-01T00:00:00Z'), 3))).toEqual([
      '2027-02-28T09:00:00.000Z',
      '2027-03-28T08:00:00.000Z', // the day of the change, after it
      '2027-04-28T08:00:00.000Z',
    ]);
    expect(iso(nextFireTimes(monthly, new Date('2027-10-01T00:00:00Z'), 2))).toEqual([
      '2027-10-28T08:00:00.000Z',
      '2027-11-28T09:00:00.000Z',
    ]);
  });

  it('monthly on day 31 fires on the last day of shorter months, February included', () => {
    const monthly: Timetable = { ...base, scheduleType: 'MONTHLY', time: '07:00:00', dayOfMonth: 31 };
    expect(iso(nextFireTimes(monthly, new Date('2027-01-15T00:00:00Z'), 4))).toEqual([
      '2027-01-31T06:00:00.000Z',
      '2027-02-28T06:00:00.000Z',
      '2027-03-31T05:00:00.000Z',
      '2027-04-30T05:00:00.000Z',
    ]);
    // A leap year: the 29th.
    expect(iso(nextFireTimes(monthly, new Date('2028-02-01T00:00:00Z'), 1))).toEqual([
      '2028-02-29T06:00:00.000Z',
    ]);
  });

  it('monthly on day 30 fires on the 30th, on the last day of February, and never on the 31st', () => {
    const monthly: Timetable = { ...base, scheduleType: 'MONTHLY', time: '07:00:00', dayOfMonth: 30 };
    expect(iso(nextFireTimes(monthly, new Date('2027-01-15T00:00:00Z'), 4))).toEqual([
      '2027-01-30T06:00:00.000Z',
      '2027-02-28T06:00:00.000Z',
      '2027-03-30T05:00:00.000Z',
      '2027-04-30T05:00:00.000Z',
    ]);
    // The rule 'd,L' also fires on 31 January: the firing filter drops it.
    expect(isIntendedFiring(monthly, new Date('2027-01-31T06:00:00Z'))).toBe(false);
    expect(isIntendedFiring(monthly, new Date('2027-01-30T06:00:00Z'))).toBe(true);
  });

  it('monthly on day 29 in a leap year and in a common one', () => {
    const monthly: Timetable = { ...base, scheduleType: 'MONTHLY', time: '07:00:00', dayOfMonth: 29 };
    expect(iso(nextFireTimes(monthly, new Date('2027-02-01T00:00:00Z'), 2))).toEqual([
      '2027-02-28T06:00:00.000Z',
      '2027-03-29T05:00:00.000Z',
    ]);
    expect(iso(nextFireTimes(monthly, new Date('2028-02-01T00:00:00Z'), 1))).toEqual([
      '2028-02-29T06:00:00.000Z',
    ]);
    // 30 April is the last day but not the 29th: dropped.
    expect(isIntendedFiring(monthly, new Date('2027-04-30T05:00:00Z'))).toBe(false);
  });
});

describe('firings an hour and firings between two times (issue 24)', () => {
  it('counts an interval of n minutes as 60/n an hour, a day 1/24, a week its days over 168', () => {
    const interval = (minutes: number): Timetable => ({
      ...base,
      scheduleType: 'MINUTE_INTERVAL',
      minuteInterval: minutes,
    });
    expect(firingsPerHour(interval(1))).toBe(60);
    expect(firingsPerHour(interval(15))).toBe(4);
    expect(firingsPerHour(interval(1440))).toBeCloseTo(1 / 24);
    expect(firingsPerHour({ ...base, time: '09:30:00' })).toBeCloseTo(1 / 24);
    expect(
      firingsPerHour({ ...base, scheduleType: 'WEEKLY', time: '09:30:00', daysOfWeek: ['MONDAY', 'FRIDAY'] }),
    ).toBeCloseTo(2 / 168);
    expect(
      firingsPerHour({ ...base, scheduleType: 'MONTHLY', time: '09:30:00', dayOfMonth: 1 }),
    ).toBeLessThan(1 / 700);
  });

  it('counts the firings in (after, until] without listing an interval, and walks a cron timetable', () => {
    const everyFive: Timetable = { ...base, scheduleType: 'MINUTE_INTERVAL', minuteInterval: 5 };
    expect(
      firingsBetween(everyFive, new Date('2026-03-02T10:00:00Z'), new Date('2026-03-02T11:00:00Z')),
    ).toEqual({
      count: 12,
      first: new Date('2026-03-02T10:05:00Z'),
      last: new Date('2026-03-02T11:00:00Z'),
    });
    expect(
      firingsBetween(everyFive, new Date('2026-03-02T10:00:00Z'), new Date('2026-03-02T10:04:59Z')),
    ).toBeUndefined();
    const daily: Timetable = { ...base, time: '09:30:00' };
    expect(firingsBetween(daily, new Date('2026-03-01T12:00:00Z'), new Date('2026-03-04T12:00:00Z'))).toEqual(
      {
        count: 3,
        first: new Date('2026-03-02T08:30:00Z'),
        last: new Date('2026-03-04T08:30:00Z'),
      },
    );
    expect(
      firingsBetween(daily, new Date('2026-03-04T12:00:00Z'), new Date('2026-03-01T12:00:00Z')),
    ).toBeUndefined();
  });
});
