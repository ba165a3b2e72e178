import { zonedDateTimeText } from '../../lib/zoned-time';

/**
 * A message's date as the dashboard list shows it (data spec §2), in the browser's zone and
 * naming it like every other card: "11/24/26, 09:05:03 PM (Europe/Berlin)".
 */
export function messageDateText(iso: string): string {
  return zonedDateTimeText(iso);
}
