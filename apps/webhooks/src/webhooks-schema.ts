import type { SchemaOwner } from '@platform/persistence';
import { Webhooks1763720000000 } from './migrations/1763720000000-webhooks';
import { SecretRotation1763900000000 } from './migrations/1763900000000-secret-rotation';
import { EventStore1763910000000 } from './migrations/1763910000000-event-store';
import { WebhookTableIds1764300000000 } from './migrations/1764300000000-webhook-table-ids';
import { WebhookPurges1764500000000 } from './migrations/1764500000000-webhook-purges';
import { Recoveries1764500100000 } from './migrations/1764500100000-recoveries';
import { WebhookAim1764600000000 } from './migrations/1764600000000-webhook-aim';
import { EventMessages1764700000000 } from './migrations/1764700000000-event-messages';

export const WEBHOOKS_SCHEMA = 'webhooks';

/** Qualified names of the context's own tables, for its SQL. */
export const WEBHOOKS_TABLE = `${WEBHOOKS_SCHEMA}.webhooks`;
export const DELIVERY_SERIES_TABLE = `${WEBHOOKS_SCHEMA}.delivery_series`;
export const DELIVERIES_TABLE = `${WEBHOOKS_SCHEMA}.deliveries`;
export const EVENTS_TABLE = `${WEBHOOKS_SCHEMA}.events`;
/** Events no webhook wanted on arrival, a stream message per row; `MESSAGE_EVENTS` reads them one event per row. */
export const EVENT_MESSAGES_TABLE = `${WEBHOOKS_SCHEMA}.event_messages`;
export const MESSAGE_EVENTS_VIEW = `${WEBHOOKS_SCHEMA}.message_events`;
export const WEBHOOK_PURGES_TABLE = `${WEBHOOKS_SCHEMA}.webhook_purges`;
export const RECOVERIES_TABLE = `${WEBHOOKS_SCHEMA}.recoveries`;

export function webhooksSchema(url: string): SchemaOwner {
  return { schema: WEBHOOKS_SCHEMA, url, migrations: [Webhooks1763720000000, SecretRotation1763900000000, EventStore1763910000000, WebhookTableIds1764300000000, WebhookPurges1764500000000, Recoveries1764500100000, WebhookAim1764600000000, EventMessages1764700000000] };
}
