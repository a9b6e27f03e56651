import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { NATS_CONNECTION } from '@platform/service';
import type { NatsConnection } from 'nats';
import { WebhooksApiConfig } from '../webhooks.config';
import { HeldUntilChanged } from '../webhooks/held-until-changed';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { SubscriptionIndex } from './subscription-index';
import { WebhookAims } from './webhook-aims';

/** Organizations whose webhooks one replica holds at most (those without any included); the longest held goes first. */
const MAX_ORGANIZATIONS = 10_000;

/**
 * Each organization's active webhooks as a SubscriptionIndex, held between batches instead of read for
 * every batch, until a change of them is announced or WEBHOOK_SUBSCRIPTIONS_TTL_MS has passed (the rules
 * in HeldUntilChanged). WEBHOOK_SUBSCRIPTIONS_TTL_MS=0 reads them for every batch.
 */
@Injectable()
export class ActiveSubscriptions implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ActiveSubscriptions');
  private readonly held: HeldUntilChanged<SubscriptionIndex>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly webhooks: WebhooksRepository,
    private readonly aims: WebhookAims,
    config: WebhooksApiConfig,
  ) {
    this.held = new HeldUntilChanged(config.WEBHOOK_SUBSCRIPTIONS_TTL_MS, MAX_ORGANIZATIONS);
  }

  onModuleInit(): void {
    this.held.follow(this.nc, (error) => this.logger.warn({ err: error }, 'stopped following the NATS connection'));
  }

  onApplicationShutdown(): void {
    this.held.stop();
  }

  /** Each of these organizations' index; those not held are read in one query. */
  async of(organizationIds: readonly string[]): Promise<Map<string, SubscriptionIndex>> {
    const found = new Map<string, SubscriptionIndex>();
    const missing: string[] = [];
    const now = Date.now();
    for (const id of organizationIds) {
      const held = this.held.get(id, '', now);
      if (held !== undefined) found.set(id, held);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const mark = this.held.mark();
    const rows = await this.webhooks.activeSubscriptions(missing);
    const byOrganization = new Map<string, typeof rows>(missing.map((id) => [id, []]));
    for (const row of rows) byOrganization.get(row.organization_id)?.push(row);
    for (const [id, webhooks] of byOrganization) {
      const index = new SubscriptionIndex(webhooks.map((webhook) => ({ id: webhook.id, events: webhook.events, table_ids: webhook.table_ids, aim: this.aims.aimOf(webhook) })));
      found.set(id, index);
      this.held.keep(mark, id, '', index, now);
    }
    return found;
  }
}
