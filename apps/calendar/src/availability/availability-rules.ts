import { AppError } from '@platform/errors';
import type { AvailabilityOverride } from '@contracts';
import type { WeeklySlot } from './weekly-slot';

/** Slots compete with each other only on the same day and for the same appointment type (or both for none). */
function competitionKey(slot: WeeklySlot): string {
  return JSON.stringify([slot.day_of_week, slot.appointment_type_id]);
}

/** Touching slots (one ends when the next starts) do not overlap; `HH:MM:SS` strings compare in time order. */
function overlaps(a: WeeklySlot, b: WeeklySlot): boolean {
  return a.start_time < b.end_time && b.start_time < a.end_time;
}

/**
 * The rules that span a slot's fields or several slots. Reports the first slot in request order that
 * ends before it starts or overlaps an earlier one, so the answer is the same for the same input.
 * Quadratic within one competing group, which the 500-slot limit keeps well under a millisecond.
 */
export function assertConsistentWeek(slots: readonly WeeklySlot[]): void {
  const earlier = new Map<string, { slot: WeeklySlot; index: number }[]>();
  slots.forEach((slot, index) => {
    if (slot.end_time <= slot.start_time) {
      throw AppError.validation(`schedules[${index}].end_time`, 'must be after start_time');
    }
    const key = competitionKey(slot);
    const group = earlier.get(key) ?? [];
    const clash = group.find((other) => overlaps(slot, other.slot));
    if (clash) {
      throw AppError.validation(
        `schedules[${index}].start_time`,
        `overlaps schedules[${clash.index}] on the same day for the same appointment type`,
      );
    }
    group.push({ slot, index });
    earlier.set(key, group);
  });
}

/**
 * The rules across overrides: a date off carries no hours and is that date's only override; a date's
 * hours end after they start and do not overlap each other. Reports the first offending override in
 * request order, naming the field (`overrides[2].date`).
 */
export function assertConsistentOverrides(overrides: readonly AvailabilityOverride[]): void {
  const byDate = new Map<string, { override: AvailabilityOverride; index: number }[]>();
  overrides.forEach((override, index) => {
    const at = (field: string) => `overrides[${index}].${field}`;
    if (override.unavailable) {
      if (override.start_time !== undefined) throw AppError.validation(at('start_time'), 'must not be given when unavailable is true');
      if (override.end_time !== undefined) throw AppError.validation(at('end_time'), 'must not be given when unavailable is true');
    } else if ((override.end_time as string) <= (override.start_time as string)) {
      throw AppError.validation(at('end_time'), 'must be after start_time');
    }
    const sameDate = byDate.get(override.date) ?? [];
    const dayOff = sameDate.find((other) => other.override.unavailable || override.unavailable);
    if (dayOff) throw AppError.validation(at('date'), `overrides[${dayOff.index}] already covers ${override.date}; a date off has no other override`);
    const clash = sameDate.find(({ override: other }) => (override.start_time as string) < (other.end_time as string) && (other.start_time as string) < (override.end_time as string));
    if (clash) throw AppError.validation(at('start_time'), `overlaps overrides[${clash.index}] on the same date`);
    sameDate.push({ override, index });
    byDate.set(override.date, sameDate);
  });
}
