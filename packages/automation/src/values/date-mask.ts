import { DateTime } from 'luxon';
import type { DateMask } from '@pagewright/shared';
import { DEFAULT_TIME_ZONE } from '@pagewright/shared';
import { AutomationError } from '../flow/automation-error.js';

const INVALID_ARGUMENT = 100061;
const DATE_TOKEN = /[yMdLEo]/u;

/**
 * Turns a recorded mask (Java-style, as the builder offers: MM/dd/yyyy, dd/MM/yyyy, hh:mm:ss,
 * MM/dd/yyyy hh:mm:ss or a custom one) into a Luxon format. The offered masks write "hh" for the
 * hour of the day, so without an am/pm marker ("a") hh reads 00–23.
 */
export function luxonFormatOf(mask: string): string {
  return mask.includes('a') ? mask : mask.replace(/hh/gu, 'HH').replace(/(?<!H)h(?!h)/gu, 'H');
}

/**
 * Reads a date shown with a mask, in the mask's time zone (default Etc/GMT0), and returns it as an
 * ISO 8601 UTC instant. A time-only mask (hh:mm:ss) is taken on 1970-01-01 so that two such values
 * compare by time alone. Throws AutomationError 100061 when the text does not fit the mask.
 */
export function parseDate(text: string, mask: Partial<DateMask> & { mask: string }): string {
  const zone = mask.gmt || DEFAULT_TIME_ZONE;
  let format = luxonFormatOf(mask.mask);
  let input = text.trim();
  if (!DATE_TOKEN.test(mask.mask)) {
    format = `yyyy-MM-dd ${format}`;
    input = `1970-01-01 ${input}`;
  }
  const parsed = DateTime.fromFormat(input, format, { zone, setZone: true });
  if (!parsed.isValid) {
    throw new AutomationError(
      INVALID_ARGUMENT,
      `"${text}" does not match the date mask "${mask.mask}" in ${zone} (${parsed.invalidExplanation ?? parsed.invalidReason ?? 'invalid'})`,
    );
  }
  return parsed.toUTC().toISO() ?? '';
}

/** Reads an ISO 8601 instant (a zone-less one is taken as UTC); null when it is not one. */
export function parseIsoInstant(text: string): DateTime | null {
  const parsed = DateTime.fromISO(text.trim(), { zone: 'UTC' });
  return parsed.isValid ? parsed : null;
}
