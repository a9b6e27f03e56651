import type { SchemaOwner } from '@platform/persistence';
import { AvailabilitySlots1763800000000 } from './migrations/1763800000000-availability-slots';
import { TimezoneAndOverrides1764000000000 } from './migrations/1764000000000-timezone-and-overrides';

export const CALENDAR_SCHEMA = 'calendar';

/** Qualified names of the context's own tables, for its SQL. */
export const AVAILABILITY_SLOTS_TABLE = `${CALENDAR_SCHEMA}.availability_slots`;
export const AVAILABILITY_SETTINGS_TABLE = `${CALENDAR_SCHEMA}.availability_settings`;
export const AVAILABILITY_OVERRIDES_TABLE = `${CALENDAR_SCHEMA}.availability_overrides`;

export function calendarSchema(url: string): SchemaOwner {
  return { schema: CALENDAR_SCHEMA, url, migrations: [AvailabilitySlots1763800000000, TimezoneAndOverrides1764000000000] };
}
