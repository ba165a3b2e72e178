import { DEFAULT_TIME_ZONE } from '@pagewright/shared';

/** Fixed-offset zones (Etc/GMT+12 … Etc/GMT-14): pages often print times in a plain offset. */
const FIXED_OFFSETS = Array.from({ length: 27 }, (_, index) => 12 - index)
  .filter((offset) => offset !== 0)
  .map((offset) => `Etc/GMT${offset > 0 ? '+' : ''}${offset}`);

let cached: string[] | undefined;

/** Zones a date mask may name: the default first, then fixed offsets, then the IANA regions. */
export function timeZones(): string[] {
  cached ??= [
    ...new Set([DEFAULT_TIME_ZONE, 'UTC', ...FIXED_OFFSETS, ...Intl.supportedValuesOf('timeZone')]),
  ];
  return cached;
}
