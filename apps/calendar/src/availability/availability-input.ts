import { ReplaceAvailabilityBody } from '@contracts';
import { validateInput } from '@platform/errors';
import { assertConsistentWeek } from './availability-rules';
import type { WeeklySlot } from './weekly-slot';

/**
 * The service checks the whole input itself, with the same contract class and options as the gateway,
 * so nothing that reaches it over NATS is trusted; then the rules across fields and slots.
 */
export function parseWeeklySlots(params: unknown): WeeklySlot[] {
  const body = validateInput(ReplaceAvailabilityBody, params);
  const slots = body.schedules.map((slot) => ({
    day_of_week: slot.day_of_week,
    start_time: slot.start_time,
    end_time: slot.end_time,
    appointment_type_id: slot.appointment_type_id ?? null,
  }));
  assertConsistentWeek(slots);
  return slots;
}
