import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { NATS_CONNECTION } from '@platform/service';
import type { NatsConnection, Subscription } from 'nats';
import { WebhooksApiConfig } from '../webhooks.config';
import { SUBSCRIPTIONS_CHANGED_SUBJECT } from '../webhooks/subscription-changes';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { SubscriptionIndex } from './subscription-index';
import { WebhookAims } from './webhook-aims';

/** Organizations whose webhooks one replica holds at most (those without any included); the longest held goes first. */
const MAX_ORGANIZATIONS = 10_000;

interface Held {
  index: SubscriptionIndex;
  /** Date.now() after which it is read again. */
  until: number;
}

/**
 * Each organization's active webhooks as a SubscriptionIndex, held between batches instead of read for
 * every batch. What keeps them right across replicas:
 * - every write of an organization's webhooks announces it on SUBSCRIPTIONS_CHANGED_SUBJECT before it
 *   is answered (SubscriptionChanges), and each replica forgets that organization when the message is
 *   read, on the connection its events come through, before any event published after it;
 * - a read that an announcement overtook serves its own batch (whose events came before it) but is not kept;
 * - a lost connection may have lost announcements: everything is forgotten when it drops and returns;
 * - whatever is held is read again after WEBHOOK_SUBSCRIPTIONS_TTL_MS however it got there
 *   (an announcement lost with a NATS node, a writer that died between its commit and its announcement).
 * WEBHOOK_SUBSCRIPTIONS_TTL_MS=0 reads them for every batch, as before.
 */
@Injectable()
export class ActiveSubscriptions implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ActiveSubscriptions');
  /** Undefined when nothing is held (a TTL of 0). A Map, not an LRU cache: one lookup per organization and batch, no timer. */
  private readonly held?: Map<string, Held>;
  private readonly ttlMs: number;
  /** Counts what made held indexes stale; a read keeps its answer only when this did not move meanwhile. */
  private changes = 0;
  private announcements?: Subscription;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly webhooks: WebhooksRepository,
    private readonly aims: WebhookAims,
    config: WebhooksApiConfig,
  ) {
    this.ttlMs = config.WEBHOOK_SUBSCRIPTIONS_TTL_MS;
    if (this.ttlMs > 0) this.held = new Map();
  }

  onModuleInit(): void {
    if (!this.held) return;
    // A callback, not an iterator: the organization is forgotten as the message is read, before the
    // messages behind it on the connection (the events) are handed to the fan-out.
    this.announcements = this.nc.subscribe(SUBSCRIPTIONS_CHANGED_SUBJECT, {
      callback: (error, message) => (error ? this.forgetAll() : this.forget(message.string())),
    });
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect' || status.type === 'reconnect') this.forgetAll();
      }
    })().catch((error: unknown) => this.logger.warn({ err: error }, 'stopped following the NATS connection'));
  }

  onApplicationShutdown(): void {
    this.announcements?.unsubscribe();
  }

  /** Each of these organizations' index; those not held are read in one query. */
  async of(organizationIds: readonly string[]): Promise<Map<string, SubscriptionIndex>> {
    const found = new Map<string, SubscriptionIndex>();
    const missing: string[] = [];
    const now = Date.now();
    for (const id of organizationIds) {
      const held = this.held?.get(id);
      if (held !== undefined && held.until > now) found.set(id, held.index);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const changesBefore = this.changes;
    const rows = await this.webhooks.activeSubscriptions(missing);
    const byOrganization = new Map<string, typeof rows>(missing.map((id) => [id, []]));
    for (const row of rows) byOrganization.get(row.organization_id)?.push(row);
    const keep = this.changes === changesBefore;
    for (const [id, webhooks] of byOrganization) {
      const index = new SubscriptionIndex(webhooks.map((webhook) => ({ id: webhook.id, events: webhook.events, table_ids: webhook.table_ids, aim: this.aims.aimOf(webhook) })));
      found.set(id, index);
      if (keep) this.hold(id, index, now);
    }
    return found;
  }

  private hold(organizationId: string, index: SubscriptionIndex, readAt: number): void {
    const held = this.held;
    if (held === undefined) return;
    // Set again at the end of the Map's order, which is then the order of reading.
    held.delete(organizationId);
    if (held.size >= MAX_ORGANIZATIONS) held.delete(held.keys().next().value as string);
    held.set(organizationId, { index, until: readAt + this.ttlMs });
  }

  private forget(organizationId: string): void {
    this.changes += 1;
    this.held?.delete(organizationId);
  }

  private forgetAll(): void {
    this.changes += 1;
    this.held?.clear();
  }
}
