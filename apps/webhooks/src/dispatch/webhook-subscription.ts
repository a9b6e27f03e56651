import { isTableEventKind } from '../event-store/event-tables';

/** What a webhook subscribes to: kinds, and optionally the tables whose `row.*`/`table.*` events it gets. */
export interface Subscription {
  events: readonly string[];
  /** Lowercase table ids; null for every table. */
  table_ids: readonly string[] | null;
}

/** What of an event decides which webhooks want it. */
export interface EventScope {
  eventType: string;
  /** The table of a `row.*`/`table.*` event (lowercase); null for other kinds or when it names none. */
  tableId: string | null;
}

/**
 * Whether a webhook with this subscription wants this event: the one rule the fan-out, the worker's
 * re-check before each attempt and recovery all apply. A webhook narrowed to tables gets a `row.*` or
 * `table.*` event only when it is about one of them; every other kind by its kind alone.
 */
export function wantsEvent(subscription: Subscription, event: EventScope): boolean {
  if (!subscription.events.includes(event.eventType)) return false;
  if (subscription.table_ids === null || !isTableEventKind(event.eventType)) return true;
  return event.tableId !== null && subscription.table_ids.includes(event.tableId);
}
