import type { SchemaOwner } from '@platform/persistence';
import { DomainEntity } from './domain/domain.entity';
import { EmailAddressEntity } from './email-address/email-address.entity';
import { Domains1763900000000 } from './migrations/1763900000000-domains';

export const DOMAINS_SCHEMA = 'domains';
export const DOMAINS_ENTITIES = [DomainEntity, EmailAddressEntity];
export const DOMAINS_MIGRATIONS = [Domains1763900000000];

export function domainsSchema(url: string): SchemaOwner {
  return { schema: DOMAINS_SCHEMA, url, entities: DOMAINS_ENTITIES, migrations: DOMAINS_MIGRATIONS };
}
