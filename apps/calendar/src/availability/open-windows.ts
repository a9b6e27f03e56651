import type { AvailabilityOverride, AvailabilityWindow } from '@contracts';
import { DateTime, IANAZone } from 'luxon';
import type { WeeklySlot } from './weekly-slot';

interface Hours {
  start_time: string;
  end_time: string;
}

export interface WindowsRequest {
  /** First and last date, both included, as dates of the schedule's own zone. */
  from: string;
  to: string;
  /** Only slots of this type and slots without one; all slots when absent. */
  appointmentTypeId?: string;
}

const DAY_MS = 86_400_000;

/**
 * The instant a spring change made the clock jump, found from the zone's own offsets (Luxon's rules):
 * the first millisecond of the day before `after` that already has the offset `after` has.
 */
function jumpBefore(after: number, zone: IANAZone): number {
  const offset = zone.offset(after);
  let before = after - DAY_MS;
  let at = after;
  while (at - before > 1) {
    const middle = Math.floor((before + at) / 2);
    if (zone.offset(middle) === offset) at = middle;
    else before = middle;
  }
  return at;
}

/**
 * Local wall-clock time to an instant, with the zone's rules for that very date. A time an autumn
 * change repeats is its first occurrence. A time a spring change skips does not exist: it is the
 * instant of the jump, so a slot from 01:00 to 02:30 on a 02:00 -> 03:00 night ends at the jump, and a
 * slot wholly inside the skipped hour has no time at all.
 */
function instant(date: string, time: string, zone: IANAZone): number {
  const local = DateTime.fromISO(`${date}T${time}`, { zone });
  if (local.toFormat('HH:mm:ss') !== time) return jumpBefore(local.toMillis(), zone);
  return Math.min(local.toMillis(), ...local.getPossibleOffsets().map((candidate) => candidate.toMillis()));
}

function hoursOf(date: string, weekday: number, slots: readonly WeeklySlot[], overrides: Map<string, AvailabilityOverride[]>, type?: string): Hours[] {
  const own = overrides.get(date);
  if (own) return own.filter((override) => !override.unavailable) as Hours[];
  return slots.filter((slot) => slot.day_of_week === weekday && (type === undefined || slot.appointment_type_id === null || slot.appointment_type_id === type));
}

/**
 * The open windows between two dates of the schedule's zone, in UTC and time order: each date's hours
 * (its overrides, or the weekly slots of its weekday) placed in the zone for that very date, so a
 * window's length follows the daylight-saving changes; windows that overlap or touch are merged.
 */
export function openWindows(
  slots: readonly WeeklySlot[],
  overrides: readonly AvailabilityOverride[],
  zone: string,
  request: WindowsRequest,
): AvailabilityWindow[] {
  const tz = IANAZone.create(zone);
  const byDate = new Map<string, AvailabilityOverride[]>();
  for (const override of overrides) byDate.set(override.date, [...(byDate.get(override.date) ?? []), override]);
  const spans: [number, number][] = [];
  // Dates are walked as plain calendar days (in UTC), never as local midnights, which some zones skip.
  const last = DateTime.fromISO(request.to, { zone: 'utc' });
  for (let day = DateTime.fromISO(request.from, { zone: 'utc' }); day <= last; day = day.plus({ days: 1 })) {
    const date = day.toISODate() as string;
    for (const hours of hoursOf(date, day.weekday % 7, slots, byDate, request.appointmentTypeId)) {
      const span: [number, number] = [instant(date, hours.start_time, tz), instant(date, hours.end_time, tz)];
      // A slot wholly inside a skipped hour has no time at all.
      if (span[1] > span[0]) spans.push(span);
    }
  }
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const previous = merged[merged.length - 1];
    if (previous && span[0] <= previous[1]) previous[1] = Math.max(previous[1], span[1]);
    else merged.push([...span]);
  }
  return merged.map(([start, end]) => ({ start: new Date(start).toISOString(), end: new Date(end).toISOString() }));
}

/** Days from `from` to `to`, both included; 0 or less when `to` is before `from`. */
export function daysIncluded(from: string, to: string): number {
  return DateTime.fromISO(to, { zone: 'utc' }).diff(DateTime.fromISO(from, { zone: 'utc' }), 'days').days + 1;
}
