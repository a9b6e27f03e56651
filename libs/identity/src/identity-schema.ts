import { Outbox, type SchemaOwner } from '@platform/persistence';
import { Identity1763700000000 } from './migrations/1763700000000-identity';
import { IdempotencyKeys1764100000000 } from './migrations/1764100000000-idempotency-keys';
import { OutboxWake1764200000000 } from './migrations/1764200000000-outbox-wake';
import { KeyLastUsed1764400000000 } from './migrations/1764400000000-key-last-used';
import { OutboxAnnounced1764450000000 } from './migrations/1764450000000-outbox-announced';
import { OutboxParked1764600000000 } from './migrations/1764600000000-outbox-parked';
import { OutboxText1765000000000 } from './migrations/1765000000000-outbox-text';

/**
 * Organizations, keys and members live in the gateway's schema, beside the gateway's stored answers to
 * idempotent requests. This is the schema's one list of migrations: the gateway's migration job and the
 * admin command both run it.
 */
export const IDENTITY_SCHEMA = 'gateway';

/** Qualified names of the schema's tables, for its SQL. */
export const ORGANIZATIONS_TABLE = `${IDENTITY_SCHEMA}.organizations`;
export const API_KEYS_TABLE = `${IDENTITY_SCHEMA}.api_keys`;
export const MEMBERS_TABLE = `${IDENTITY_SCHEMA}.members`;

export const IDENTITY_OUTBOX = new Outbox(IDENTITY_SCHEMA);

export function identitySchema(url: string): SchemaOwner {
  return {
    schema: IDENTITY_SCHEMA,
    url,
    migrations: [
      Identity1763700000000,
      IdempotencyKeys1764100000000,
      OutboxWake1764200000000,
      KeyLastUsed1764400000000,
      OutboxAnnounced1764450000000,
      OutboxParked1764600000000,
      OutboxText1765000000000,
    ],
  };
}
