import { Injectable, Logger } from '@nestjs/common';
import { RecoverParams, RedeliverParams, ServiceResult, WebhookRecoveryView, WebhookRedeliveryView } from '@contracts';
import { AppError } from '@platform/errors';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { WebhooksApiConfig } from '../webhooks.config';
import { DeliveriesRepository } from '../webhooks/deliveries.repository';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { wantsEvent } from '../dispatch/webhook-subscription';
import type { WebhookRecord } from '../webhooks/webhook-record';
import { EventStoreRepository, RecoveryCandidate } from './event-store.repository';
import { jobOfSeries } from './series-jobs';

const DAY_MS = 86_400_000;
/** Jobs added to Redis per round trip while queueing a recovery. */
const QUEUE_CHUNK = 500;
/** Stored events read per round trip while choosing what a recovery sends. */
const RECOVERY_PAGE = 1_000;

/**
 * Sending stored events again on the customer's request: one delivery's event (redeliver), or every event
 * of a window the webhook never received (recover). Each opens new series in Postgres first, so that what
 * Redis fails to take now is queued by the reconciler later.
 */
@Injectable()
export class RedeliveryService {
  private readonly logger = new Logger('RedeliveryService');

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly store: EventStoreRepository,
    private readonly queue: DeliveryQueue,
    private readonly config: WebhooksApiConfig,
  ) {}

  async redeliver(organizationId: string, params: RedeliverParams): Promise<ServiceResult<WebhookRedeliveryView>> {
    if (!(await this.webhooks.findOwned(organizationId, params.webhookId))) throw AppError.notFound('Webhook');
    const delivery = await this.deliveries.findOwned(organizationId, params.webhookId, params.deliveryId);
    if (!delivery) throw AppError.notFound('Delivery');
    const [series] = await this.store.openSeries(organizationId, params.webhookId, [delivery.event_id], 'redeliver');
    if (!series) throw AppError.validation('delivery_id', 'its event is not in the event store (a test send, or older than the retention)');
    await this.queueSeries([series.id]);
    return { data: { event_id: series.event_id, webhook_id: series.webhook_id, status: 'queued' } };
  }

  async recover(organizationId: string, params: RecoverParams): Promise<ServiceResult<WebhookRecoveryView>> {
    const webhook = await this.webhooks.findOwned(organizationId, params.webhookId);
    if (!webhook) throw AppError.notFound('Webhook');
    const now = Date.now();
    const since = Date.parse(params.since);
    const until = params.until === undefined ? now : Date.parse(params.until);
    const days = this.config.EVENT_RETENTION_DAYS;
    if (since < now - days * DAY_MS) throw AppError.validation('since', `must be within the event retention (the last ${days} days)`);
    if (params.until === undefined && since >= now) throw AppError.validation('since', 'must be in the past');
    if (until <= since) throw AppError.validation('until', 'must be after since');
    const seriesIds = await this.openRecovery(webhook, { kinds: webhook.events, since: new Date(since), until: new Date(until) });
    await this.queueSeries(seriesIds);
    return { data: { queued: seriesIds.length } };
  }

  /**
   * A recovery series for every event of the window the webhook never received and wants now: the store
   * narrows by kind, `wantsEvent` decides (its tables too), as for the fan-out. Each event once.
   */
  private async openRecovery(webhook: WebhookRecord, window: { kinds: string[]; since: Date; until: Date }): Promise<string[]> {
    const seriesIds: string[] = [];
    let after: RecoveryCandidate | undefined;
    for (;;) {
      const page = await this.store.recoveryCandidates(webhook.organization_id, webhook.id, window, after, RECOVERY_PAGE);
      const wanted = page.filter((event) => wantsEvent(webhook, { eventType: event.event_type, tableId: event.table_id }));
      seriesIds.push(...(await this.store.openRecovery(webhook.id, wanted.map((event) => event.id))));
      if (page.length < RECOVERY_PAGE) return seriesIds;
      after = page[page.length - 1];
    }
  }

  /** Queues the series now; what Redis does not take stays owed in Postgres and is queued by the reconciler. */
  private async queueSeries(seriesIds: string[]): Promise<void> {
    try {
      for (let start = 0; start < seriesIds.length; start += QUEUE_CHUNK) {
        const series = await this.store.seriesToQueue(seriesIds.slice(start, start + QUEUE_CHUNK));
        await this.queue.queue.addBulk(series.map((owed) => jobOfSeries(owed)));
      }
    } catch (error) {
      this.logger.warn({ err: error, series: seriesIds.length }, 'could not queue every series now; the reconciler queues the rest');
    }
  }
}
