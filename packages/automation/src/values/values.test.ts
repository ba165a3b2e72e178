import { describe, expect, it } from 'vitest';
import { AutomationError } from '../flow/automation-error.js';
import { evaluateCondition } from './conditions.js';
import { parseDate } from './date-mask.js';
import { parseNumber } from './number-mask.js';

const dollars = { beforePositive: '$', beforeNegative: '-', decimalSeparator: '.', groupSeparator: ',' };

describe('parseNumber', () => {
  it('reads prefixes, group and decimal separators', () => {
    expect(parseNumber('$1,234.50', dollars)).toBe(1234.5);
    expect(parseNumber(' 1 234 ', {})).toBe(1234);
    expect(parseNumber('-$20.00', dollars)).toBe(-20);
    expect(parseNumber('($20.00)', { ...dollars, beforeNegative: '(', afterNegative: ')' })).toBe(-20);
    expect(parseNumber('20.00-', { beforeNegative: '', afterNegative: '-' })).toBe(-20);
    expect(parseNumber('1.234,5', { decimalSeparator: ',', groupSeparator: '.' })).toBe(1234.5);
    expect(parseNumber('12%', { afterPositive: '%' })).toBe(12);
    expect(parseNumber('-7', { beforeNegative: '(', afterNegative: ')' })).toBe(-7);
  });

  it('refuses garbage with 100061', () => {
    for (const text of ['abc', '', '$', '1.2.3', '12abc', '1,2,3']) {
      const mask = text === '1,2,3' ? { decimalSeparator: ',', groupSeparator: '.' } : dollars;
      expect(() => parseNumber(text, mask)).toThrow(AutomationError);
    }
    try {
      parseNumber('n/a', dollars);
    } catch (error) {
      expect((error as AutomationError).code).toBe(100061);
      expect((error as AutomationError).originalMessage).toContain('n/a');
    }
  });
});

describe('parseDate', () => {
  it('reads the offered masks in the default zone Etc/GMT0', () => {
    expect(parseDate('01/31/2024', { mask: 'MM/dd/yyyy' })).toBe('2024-01-31T00:00:00.000Z');
    expect(parseDate('31/01/2024', { mask: 'dd/MM/yyyy', gmt: 'Etc/GMT0' })).toBe('2024-01-31T00:00:00.000Z');
    expect(parseDate('14:05:06', { mask: 'hh:mm:ss' })).toBe('1970-01-01T14:05:06.000Z');
    expect(parseDate(' 01/31/2024 23:59:00 ', { mask: 'MM/dd/yyyy hh:mm:ss' })).toBe(
      '2024-01-31T23:59:00.000Z',
    );
  });

  it('interprets the text in the mask time zone', () => {
    expect(parseDate('01/31/2024 09:00:00', { mask: 'MM/dd/yyyy hh:mm:ss', gmt: 'America/New_York' })).toBe(
      '2024-01-31T14:00:00.000Z',
    );
    expect(parseDate('07/01/2024 09:00:00', { mask: 'MM/dd/yyyy hh:mm:ss', gmt: 'America/New_York' })).toBe(
      '2024-07-01T13:00:00.000Z',
    );
    // POSIX-style Etc zones have the inverted sign: Etc/GMT+3 is UTC-3.
    expect(parseDate('01/31/2024', { mask: 'MM/dd/yyyy', gmt: 'Etc/GMT+3' })).toBe(
      '2024-01-31T03:00:00.000Z',
    );
    expect(parseDate('2024-01-31 9:00 PM', { mask: 'yyyy-MM-dd h:mm a', gmt: 'Asia/Tokyo' })).toBe(
      '2024-01-31T12:00:00.000Z',
    );
  });

  it('refuses text that does not fit and unknown zones with 100061', () => {
    expect(() => parseDate('2024-01-31', { mask: 'MM/dd/yyyy' })).toThrow(/does not match/);
    expect(() => parseDate('13/31/2024', { mask: 'MM/dd/yyyy' })).toThrow(AutomationError);
    expect(() => parseDate('01/31/2024', { mask: 'MM/dd/yyyy', gmt: 'Mars/Olympus' })).toThrow(
      AutomationError,
    );
  });
});

describe('conditions', () => {
  it('compares numbers as numbers', () => {
    const left = { kind: 'number', value: 1234.5 } as const;
    expect(evaluateCondition(left, 'GREATER_THAN', '1000')).toBe(true);
    expect(evaluateCondition(left, 'GREATER_THAN', '$1,234.50', { numberFormat: dollars })).toBe(false);
    expect(evaluateCondition(left, 'GREATER_EQUAL_THAN', '$1,234.50', { numberFormat: dollars })).toBe(true);
    expect(evaluateCondition(left, 'EQUAL', '1234.50')).toBe(true);
    expect(evaluateCondition(left, 'LESS_THAN', '9e3')).toBe(true);
    expect(evaluateCondition(left, 'NOT_EQUAL', '1234.5')).toBe(false);
    expect(evaluateCondition(left, 'CONTAINS', '234')).toBe(true);
  });

  it('compares dates as instants', () => {
    const left = { kind: 'datetime', value: '2024-01-31T14:00:00.000Z' } as const;
    expect(evaluateCondition(left, 'EQUAL', '2024-01-31T09:00:00-05:00')).toBe(true);
    expect(evaluateCondition(left, 'LESS_THAN', '2024-02-01')).toBe(true);
    const masks = { datetimeFormat: { mask: 'MM/dd/yyyy', gmt: 'Etc/GMT0' } };
    expect(evaluateCondition(left, 'GREATER_THAN', '01/31/2024', masks)).toBe(true);
    expect(evaluateCondition(left, 'LESS_EQUAL_THAN', '01/30/2024', masks)).toBe(false);
  });

  it('compares text as text and refuses ordering on it', () => {
    const left = { kind: 'text', value: 'Invoice paid' } as const;
    expect(evaluateCondition(left, 'EQUAL', 'Invoice paid')).toBe(true);
    expect(evaluateCondition(left, 'NOT_EQUAL', 'invoice paid')).toBe(true);
    expect(evaluateCondition(left, 'CONTAINS', 'paid')).toBe(true);
    expect(evaluateCondition(left, 'NOT_CONTAINS', 'paid')).toBe(false);
    expect(() => evaluateCondition(left, 'GREATER_THAN', 'a')).toThrow(/needs a number or a date/);
  });
});
