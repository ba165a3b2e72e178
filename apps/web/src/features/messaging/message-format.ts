const US_DATE_TIME = new Intl.DateTimeFormat('en-US', {
  month: '2-digit',
  day: '2-digit',
  year: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** A message's date as the dashboard list shows it (data spec §2): "11/24/26, 09:05:03 PM". */
export function messageDateText(iso: string): string {
  return US_DATE_TIME.format(new Date(iso));
}
