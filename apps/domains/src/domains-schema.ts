import { Outbox, type SchemaOwner } from '@platform/persistence';
import { Domains1763900000000 } from './migrations/1763900000000-domains';
import { DomainChecks1764000000000 } from './migrations/1764000000000-domain-checks';
import { OutboxWake1764200000000 } from './migrations/1764200000000-outbox-wake';
import { OutboxAnnounced1764450000000 } from './migrations/1764450000000-outbox-announced';
import { OutboxParked1764600000000 } from './migrations/1764600000000-outbox-parked';
import { OutboxText1765000000000 } from './migrations/1765000000000-outbox-text';

export const DOMAINS_SCHEMA = 'domains';

/** Qualified names of the context's own tables, for its SQL. */
export const DOMAINS_TABLE = `${DOMAINS_SCHEMA}.domains`;
export const EMAIL_ADDRESSES_TABLE = `${DOMAINS_SCHEMA}.email_addresses`;

export const DOMAINS_OUTBOX = new Outbox(DOMAINS_SCHEMA);

export function domainsSchema(url: string): SchemaOwner {
  return { schema: DOMAINS_SCHEMA, url, migrations: [Domains1763900000000, DomainChecks1764000000000, OutboxWake1764200000000, OutboxAnnounced1764450000000, OutboxParked1764600000000, OutboxText1765000000000] };
}
