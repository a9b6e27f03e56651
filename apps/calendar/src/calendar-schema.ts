import type { SchemaOwner } from '@platform/persistence';

export const CALENDAR_SCHEMA = 'calendar';

export function calendarSchema(url: string): SchemaOwner {
  return { schema: CALENDAR_SCHEMA, url, entities: [], migrations: [] };
}
