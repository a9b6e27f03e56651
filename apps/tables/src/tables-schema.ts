import type { SchemaOwner } from '@platform/persistence';
import { Tables1763710000000 } from './migrations/1763710000000-tables';

export const TABLES_SCHEMA = 'tables';

export function tablesSchema(url: string): SchemaOwner {
  return { schema: TABLES_SCHEMA, url, entities: [], migrations: [Tables1763710000000] };
}
