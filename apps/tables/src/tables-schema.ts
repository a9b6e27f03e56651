import type { SchemaOwner } from '@platform/persistence';

export const TABLES_SCHEMA = 'tables';

export function tablesSchema(url: string): SchemaOwner {
  return { schema: TABLES_SCHEMA, url, entities: [], migrations: [] };
}
