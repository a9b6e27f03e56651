import { AvailabilityOverride, DEFAULT_TIMEZONE, ReplaceAvailabilityBody } from '@contracts';
import { assertConsistentOverrides, assertConsistentWeek } from './availability-rules';
import type { Availability } from './weekly-slot';

/**
 * The availability of a request body the validation pipe has checked field by field; here the rules
 * across fields, slots and overrides. What is left out is reset: no zone means UTC, no overrides none.
 */
export function parseAvailability(body: ReplaceAvailabilityBody): Availability {
  const slots = body.schedules.map((slot) => ({
    day_of_week: slot.day_of_week,
    start_time: slot.start_time,
    end_time: slot.end_time,
    appointment_type_id: slot.appointment_type_id ?? null,
  }));
  assertConsistentWeek(slots);
  const overrides: AvailabilityOverride[] = (body.overrides ?? []).map(({ date, start_time, end_time, unavailable }) => ({
    date,
    start_time,
    end_time,
    unavailable,
  }));
  assertConsistentOverrides(overrides);
  return {
    slots,
    timezone: body.timezone ?? DEFAULT_TIMEZONE,
    overrides: overrides.map(({ date, unavailable, start_time, end_time }) => (unavailable ? { date, unavailable } : { date, start_time, end_time })),
  };
}
