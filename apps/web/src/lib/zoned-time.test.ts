import { describe, expect, it } from 'vitest';
import { zonedDateTimeText } from './zoned-time';

describe('zonedDateTimeText', () => {
  it('tells the instant in the given zone, in the spec’s list format, with the zone’s name', () => {
    expect(zonedDateTimeText('2025-01-15T08:30:05.000Z', 'Europe/Berlin')).toMatch(
      /^01\/15\/25, 09:30:05\s?AM \(Europe\/Berlin\)$/u,
    );
    expect(zonedDateTimeText('2025-01-15T08:30:05.000Z', 'Asia/Tokyo')).toMatch(
      /^01\/15\/25, 05:30:05\s?PM \(Asia\/Tokyo\)$/u,
    );
  });

  it('names the browser’s zone when none is given', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    expect(zonedDateTimeText('2025-01-15T08:30:05.000Z').endsWith(` (${zone})`)).toBe(true);
  });

  it('shows what it cannot read as it came', () => {
    expect(zonedDateTimeText('soon', 'UTC')).toBe('soon');
  });
});
