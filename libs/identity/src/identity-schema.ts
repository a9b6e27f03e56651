import type { SchemaOwner } from '@platform/persistence';
import { ApiKey } from './entities/api-key.entity';
import { Member } from './entities/member.entity';
import { Organization } from './entities/organization.entity';
import { Identity1763700000000 } from './migrations/1763700000000-identity';

/** Organizations, keys and members live in the gateway's schema. */
export const IDENTITY_SCHEMA = 'gateway';
export const IDENTITY_ENTITIES = [Organization, ApiKey, Member];
export const IDENTITY_MIGRATIONS = [Identity1763700000000];

export function identitySchema(url: string, poolSize = 5): SchemaOwner {
  return { schema: IDENTITY_SCHEMA, url, entities: IDENTITY_ENTITIES, migrations: IDENTITY_MIGRATIONS, poolSize };
}
