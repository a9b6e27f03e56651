import { ReplaceAvailabilityBody } from '@contracts';
import { AppError, validationErrorFrom } from '@platform/errors';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { assertConsistentWeek } from './availability-rules';
import type { WeeklySlot } from './weekly-slot';

/**
 * The service checks the whole input itself, with the same contract class and options as the gateway,
 * so nothing that reaches it over NATS is trusted; then the rules across fields and slots.
 */
export async function parseWeeklySlots(params: unknown): Promise<WeeklySlot[]> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw AppError.validation('body', 'must be a JSON object');
  }
  const body = plainToInstance(ReplaceAvailabilityBody, params);
  const errors = await validate(body, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (errors.length > 0) throw validationErrorFrom(errors);
  const slots = body.schedules.map((slot) => ({
    day_of_week: slot.day_of_week,
    start_time: slot.start_time,
    end_time: slot.end_time,
    appointment_type_id: slot.appointment_type_id ?? null,
  }));
  assertConsistentWeek(slots);
  return slots;
}
