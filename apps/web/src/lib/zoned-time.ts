import { browserTimeZone } from './time-zone';

const formats = new Map<string, Intl.DateTimeFormat>();

/** The spec's list format (data spec §2: "11/24/26, 09:05:03 PM"), told in `timeZone`. */
function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      month: '2-digit',
      day: '2-digit',
      year: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZone,
    });
    formats.set(timeZone, format);
  }
  return format;
}

/**
 * An instant as every dashboard card shows it: the spec's date and time, told in `timeZone` (the
 * browser's unless given), followed by that zone's name, "11/24/26, 09:05:03 PM (Europe/Berlin)".
 * A time without its zone is ambiguous once a scheduler counts in another zone than the browser.
 * What is not an instant is shown as it came.
 */
export function zonedDateTimeText(iso: string, timeZone: string = browserTimeZone()): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return iso;
  return `${formatIn(timeZone).format(instant)} (${timeZone})`;
}
