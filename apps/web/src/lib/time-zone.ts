/** The browser's IANA time zone (query date filters and schedulers count in it by default). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
