import { describe, expect, it } from 'vitest';
import { messageDateText } from './message-format';

describe('the message list date (data spec §2)', () => {
  it('is US style with two digits for month, day, year, hour, minute and second, then the zone', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const text = messageDateText(new Date(2026, 0, 5, 9, 4, 3).toISOString());
    expect(text.startsWith('01/05/26, 09:04:03')).toBe(true);
    expect(text).toMatch(/AM \(.+\)$/u);
    expect(text.endsWith(` (${zone})`)).toBe(true);
  });
});
