/** Calendar values as rows store them and filters compare them: real dates, and date-times normalized to UTC. */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):?(\d{2}))$/i;

/**
 * A value refused for a reason the client can act on; the caller adds the `data.<slug>` path, and `at`
 * (`[2]`) when the reason belongs to one entry of the value.
 */
export class InvalidValue extends Error {
  constructor(
    reason: string,
    readonly at = '',
  ) {
    super(reason);
  }
}

function fail(reason: string, at?: string): never {
  throw new InvalidValue(reason, at);
}

/**
 * Milliseconds since the epoch of a UTC date and time (month 1-12). `Date.UTC` reads years 0-99 as
 * 1900-1999; setting the full year does not.
 */
function utcTime(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utcTime(year, month + 1, 0)).getUTCDate();
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function parseDate(value: unknown): string {
  if (typeof value !== 'string') fail('must be a date YYYY-MM-DD');
  const match = DATE.exec(value);
  if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) fail('must be a real calendar date YYYY-MM-DD');
  return value;
}

/** ISO 8601 with `Z` or an offset -> UTC `Z` with milliseconds. */
export function parseDateTime(value: unknown): string {
  if (typeof value !== 'string') fail('must be an ISO 8601 date-time with an offset or Z');
  const match = DATETIME.exec(value);
  if (!match) fail('must be an ISO 8601 date-time with an offset or Z');
  const [, y, mo, d, h, mi, s = '0', fraction = '0', zone, offH, offM] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) fail('is not a real date and time');
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    if (Number(offH) > 14 || Number(offM) > 59) fail('has an invalid UTC offset');
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (Number(offH) * 60 + Number(offM));
  }
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const utc = utcTime(year, month, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  const date = new Date(utc);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) fail('is out of range');
  return date.toISOString();
}
