import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DomainEvent, WebhookOperationalEventData, WebhookOperationalKind } from '@contracts';
import { Database } from '@platform/persistence';
import { deliveryJob } from '../delivery/delivery-job';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { EventStoreRepository, StoredEvent } from '../event-store/event-store.repository';
import { SubscriptionChanges } from './subscription-changes';
import { WebhooksRepository } from './webhooks.repository';

/**
 * A webhook's move to `failed` and back, with the operational event that tells the organization's other
 * webhooks: the status, the stored event and its series commit together, so the event goes out exactly
 * when the status changed (what Redis does not take now, the reconciler queues later). A webhook never
 * gets its own: it is left out of the series.
 */
@Injectable()
export class OperationalEvents {
  private readonly logger = new Logger('OperationalEvents');

  constructor(
    private readonly db: Database,
    private readonly webhooks: WebhooksRepository,
    private readonly store: EventStoreRepository,
    private readonly queue: DeliveryQueue,
    private readonly changes: SubscriptionChanges,
  ) {}

  failed(webhookId: string, lastError: string): Promise<void> {
    return this.statusChanged(webhookId, 'webhook.failed', lastError);
  }

  recovered(webhookId: string): Promise<void> {
    return this.statusChanged(webhookId, 'webhook.recovered', null);
  }

  private async statusChanged(webhookId: string, kind: WebhookOperationalKind, lastError: string | null): Promise<void> {
    const status = kind === 'webhook.failed' ? 'failed' : 'active';
    const opened = await this.db.transaction(async (tx) => {
      const webhook = await this.webhooks.changeStatus(tx, webhookId, status);
      if (!webhook) return undefined;
      const event: DomainEvent<WebhookOperationalEventData> = {
        id: randomUUID(),
        event: kind,
        timestamp: new Date().toISOString(),
        organization_id: webhook.organization_id,
        data: { webhook_id: webhook.id, name: webhook.name, url: webhook.url, status, last_error: lastError },
      };
      const stored: StoredEvent = { id: event.id, organizationId: event.organization_id, eventType: kind, tableId: null, body: JSON.stringify(event) };
      const subscribers = await this.webhooks.subscribersOf(tx, webhook.organization_id, kind, webhook.id);
      const series = await this.store.storeFanOutIn(tx, [stored], subscribers.map((id) => ({ eventId: event.id, webhookId: id })));
      return { stored, series };
    });
    if (!opened) return;
    // Every worker forgets the webhook it holds: the next attempt anywhere sees the status.
    await this.changes.announce(opened.stored.organizationId);
    const { stored, series } = opened;
    if (series.length === 0) return;
    const jobs = series.map((open) =>
      deliveryJob({ seriesId: open.id, eventId: stored.id, eventType: kind, tableId: null, organizationId: stored.organizationId, webhookId: open.webhook_id, body: stored.body }),
    );
    await this.queue.queue.addBulk(jobs).catch((error: unknown) => {
      this.logger.warn({ err: error, kind, webhookId }, 'could not queue an operational event now; the reconciler queues it');
    });
  }
}
