import type { SchemaOwner } from '@platform/persistence';
import { AvailabilitySlots1763800000000 } from './migrations/1763800000000-availability-slots';

export const CALENDAR_SCHEMA = 'calendar';
export const CALENDAR_MIGRATIONS = [AvailabilitySlots1763800000000];

export function calendarSchema(url: string): SchemaOwner {
  return { schema: CALENDAR_SCHEMA, url, entities: [], migrations: CALENDAR_MIGRATIONS };
}
