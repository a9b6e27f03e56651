import { isTableEventKind } from '../event-store/event-tables';
import { AimedSubscriber, AimIndex } from './aim-index';
import type { EventScope, Subscription } from './webhook-subscription';

/** An active webhook as the fan-out matches events against it: what it subscribes to, and its compiled aim. */
export type IndexedSubscription = Subscription & AimedSubscriber;

/** The webhooks that subscribe to one kind: to every table's events of it, and narrowed to some tables. */
interface KindSubscribers {
  everyTable: IndexedSubscription[];
  byTable: Map<string, IndexedSubscription[]>;
  /** The aim index of each table (null: an event of no table) asked for so far. */
  indexes: Map<string | null, AimIndex>;
}

/** Tables a kind's aim indexes are kept for before starting over (an organization's tables bound them anyway). */
const MAX_INDEXES_PER_KIND = 1_000;

const NOBODY = new AimIndex([], '');

/**
 * One organization's active webhooks, by the kinds and tables they want, made once per change of them
 * rather than once per batch: an event is matched against the webhooks of its kind and table alone,
 * with the rule `wantsEvent` states (narrowed to tables: a `row.*`/`table.*` event of one of them;
 * every other kind by its kind), then against their aims through an `AimIndex`.
 */
export class SubscriptionIndex {
  private readonly byKind = new Map<string, KindSubscribers>();

  constructor(webhooks: readonly IndexedSubscription[]) {
    for (const webhook of webhooks) {
      for (const kind of new Set(webhook.events)) {
        let subscribers = this.byKind.get(kind);
        if (subscribers === undefined) {
          subscribers = { everyTable: [], byTable: new Map(), indexes: new Map() };
          this.byKind.set(kind, subscribers);
        }
        if (webhook.table_ids === null || !isTableEventKind(kind)) {
          subscribers.everyTable.push(webhook);
          continue;
        }
        for (const tableId of new Set(webhook.table_ids)) {
          const narrowed = subscribers.byTable.get(tableId);
          if (narrowed) narrowed.push(webhook);
          else subscribers.byTable.set(tableId, [webhook]);
        }
      }
    }
  }

  /** Whether the organization has no active webhook at all: no event of it needs matching. */
  get isEmpty(): boolean {
    return this.byKind.size === 0;
  }

  /** The ids of the webhooks that want this event (`wantsEvent`) and whose aims let it through (`aimAllows`). */
  webhooksFor(event: EventScope, data: unknown): readonly string[] {
    return this.aimsFor(event).matching(data);
  }

  private aimsFor({ eventType, tableId }: EventScope): AimIndex {
    const subscribers = this.byKind.get(eventType);
    if (subscribers === undefined) return NOBODY;
    let index = subscribers.indexes.get(tableId);
    if (index === undefined) {
      const narrowed = (tableId === null ? undefined : subscribers.byTable.get(tableId)) ?? [];
      index = new AimIndex([...subscribers.everyTable, ...narrowed], eventType);
      if (subscribers.indexes.size >= MAX_INDEXES_PER_KIND) subscribers.indexes.clear();
      subscribers.indexes.set(tableId, index);
    }
    return index;
  }
}
