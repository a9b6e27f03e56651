import type { SchemaOwner } from '@platform/persistence';
import { Webhooks1763720000000 } from './migrations/1763720000000-webhooks';

export const WEBHOOKS_SCHEMA = 'webhooks';

export function webhooksSchema(url: string): SchemaOwner {
  return { schema: WEBHOOKS_SCHEMA, url, entities: [], migrations: [Webhooks1763720000000] };
}
