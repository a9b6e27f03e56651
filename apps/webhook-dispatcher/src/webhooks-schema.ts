import type { SchemaOwner } from '@platform/persistence';

export const WEBHOOKS_SCHEMA = 'webhooks';

export function webhooksSchema(url: string): SchemaOwner {
  return { schema: WEBHOOKS_SCHEMA, url, entities: [], migrations: [] };
}
