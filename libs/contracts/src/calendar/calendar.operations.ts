import { operation } from '../operation';
import { AvailabilityWindowsQuery, ReplaceAvailabilityBody } from './availability.dto';
import { AvailabilitySchedules, AvailabilityWindows } from './availability.response';

/** The calendar service's operations; every answer is bare, without the success envelope, as the interface asks. */
export const CalendarOperations = {
  replaceAvailability: operation({
    operationId: 'replaceAvailability',
    summary: 'Replace the whole weekly availability',
    tag: 'calendar',
    method: 'PUT',
    path: 'calendar/availability',
    scope: 'calendar:write',
    subject: 'calendar.availability.replace',
    body: ReplaceAvailabilityBody,
    answers: AvailabilitySchedules,
    bare: true,
  }),
  getAvailability: operation({
    operationId: 'getAvailability',
    summary: 'Read the weekly availability',
    tag: 'calendar',
    method: 'GET',
    path: 'calendar/availability',
    scope: 'calendar:read',
    subject: 'calendar.availability.get',
    answers: AvailabilitySchedules,
    bare: true,
  }),
  availabilityWindows: operation({
    operationId: 'listAvailabilityWindows',
    summary: "Open windows between two dates, in UTC, with the zone's daylight-saving changes and the overrides applied",
    tag: 'calendar',
    method: 'GET',
    path: 'calendar/availability/windows',
    scope: 'calendar:read',
    subject: 'calendar.availability.windows',
    query: AvailabilityWindowsQuery,
    answers: AvailabilityWindows,
    bare: true,
  }),
};
