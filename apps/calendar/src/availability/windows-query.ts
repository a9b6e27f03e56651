import { AvailabilityWindowsQuery, MAX_WINDOW_DAYS } from '@contracts';
import { AppError } from '@platform/errors';
import { daysIncluded, WindowsRequest } from './open-windows';

/** The rule across the query's fields, which the validation pipe checked one by one: `to` from `from` on, 62 days at most. */
export function parseWindowsQuery(query: AvailabilityWindowsQuery): WindowsRequest {
  const days = daysIncluded(query.from, query.to);
  if (days < 1) throw AppError.validation('to', 'must not be before from');
  if (days > MAX_WINDOW_DAYS) throw AppError.validation('to', `must be at most ${MAX_WINDOW_DAYS} days from from, both included`);
  return { from: query.from, to: query.to, appointmentTypeId: query.appointment_type_id };
}
