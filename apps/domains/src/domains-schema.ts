import type { SchemaOwner } from '@platform/persistence';

export const DOMAINS_SCHEMA = 'domains';

export function domainsSchema(url: string): SchemaOwner {
  return { schema: DOMAINS_SCHEMA, url, entities: [], migrations: [] };
}
