import { Inject, Injectable, Logger } from '@nestjs/common';
import { NATS_CONNECTION } from '@platform/service';
import type { NatsConnection } from 'nats';

/**
 * The core NATS subject on which the webhooks service announces that an organization's webhooks changed
 * (the message: the organization's id). Every fan-out replica and delivery worker forgets the webhooks it
 * holds for it.
 */
export const SUBSCRIPTIONS_CHANGED_SUBJECT = 'webhook-subscriptions.changed';

/** Tells every fan-out replica and worker that an organization's webhooks changed (ActiveSubscriptions and DeliveryWebhooks listen). */
@Injectable()
export class SubscriptionChanges {
  private readonly logger = new Logger('SubscriptionChanges');

  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  /**
   * Call after a write of the organization's webhooks committed, and before answering it. Once the flush
   * returns, NATS has the announcement ahead of any event the caller causes next, so a replica forgets
   * the old webhooks before it reads that event. Never fails the write: a lost announcement costs at most
   * WEBHOOK_SUBSCRIPTIONS_TTL_MS of the old webhooks.
   */
  async announce(organizationId: string): Promise<void> {
    try {
      this.nc.publish(SUBSCRIPTIONS_CHANGED_SUBJECT, organizationId);
      await this.nc.flush();
    } catch (error) {
      this.logger.warn({ err: error, organizationId }, 'could not announce a change of webhooks; replicas read them again within their TTL');
    }
  }
}
