import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  OperationInput,
  ServiceResult,
  WebhookRecoveryStartedView,
  WebhookRecoveryView,
  WebhookRedeliveryView,
  WebhooksOperations,
} from '@contracts';
import { AppError } from '@platform/errors';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { WebhooksApiConfig } from '../webhooks.config';
import { DeliveriesRepository } from '../webhooks/deliveries.repository';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { wantsEvent } from '../dispatch/webhook-subscription';
import { aimAllows, aimedEvent, compileAim } from '../dispatch/webhook-aim';
import { EventStoreRepository, RecoveryCursor } from './event-store.repository';
import { Recovery, RecoveriesRepository } from './recoveries.repository';
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
    private readonly recoveries: RecoveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly config: WebhooksApiConfig,
  ) {}

  async redeliver(organizationId: string, params: OperationInput<typeof WebhooksOperations.redeliver>): Promise<ServiceResult<WebhookRedeliveryView>> {
    if (!(await this.webhooks.findOwned(organizationId, params.webhookId))) throw AppError.notFound('Webhook');
    const delivery = await this.deliveries.findOwned(organizationId, params.webhookId, params.deliveryId);
    if (!delivery) throw AppError.notFound('Delivery');
    const series = await this.store.openRedelivery(organizationId, params.webhookId, delivery.event_id);
    if (series === 'gone') throw AppError.validation('delivery_id', 'its event is not in the event store (a test send, or older than the retention)');
    // An event a recover or redeliver has queued for this webhook and not finished is not queued twice.
    if (series !== 'already') await this.queueSeries([series.id]);
    return { data: { event_id: delivery.event_id, webhook_id: params.webhookId, status: 'queued' } };
  }

  /** Queues a recovery of the window; `RecoveryRunner` runs it in the background. */
  async recover(organizationId: string, params: OperationInput<typeof WebhooksOperations.recover>): Promise<ServiceResult<WebhookRecoveryStartedView>> {
    const webhook = await this.webhooks.findOwned(organizationId, params.webhookId);
    if (!webhook) throw AppError.notFound('Webhook');
    const now = Date.now();
    const since = Date.parse(params.since);
    const until = params.until === undefined ? now : Date.parse(params.until);
    const days = this.config.EVENT_RETENTION_DAYS;
    if (since < now - days * DAY_MS) throw AppError.validation('since', `must be within the event retention (the last ${days} days)`);
    if (params.until === undefined && since >= now) throw AppError.validation('since', 'must be in the past');
    if (until <= since) throw AppError.validation('until', 'must be after since');
    const recovery = await this.recoveries.insert({
      id: randomUUID(),
      webhook_id: webhook.id,
      organization_id: organizationId,
      since: new Date(since),
      until: new Date(until),
    });
    return { data: { recovery_id: recovery.id, status: 'queued' } };
  }

  async recovery(organizationId: string, params: OperationInput<typeof WebhooksOperations.recovery>): Promise<ServiceResult<WebhookRecoveryView>> {
    const recovery = await this.recoveries.findOwned(organizationId, params.webhookId, params.recoveryId);
    if (!recovery) throw AppError.notFound('Recovery');
    const { status, queued, started_at, finished_at } = recovery;
    return { data: { status, queued, started_at: started_at?.toISOString() ?? null, finished_at: finished_at?.toISOString() ?? null } };
  }

  /**
   * Runs a claimed recovery: a recovery series for every event of the window the webhook never received
   * and wants now (the store narrows by kind and skips events an open recover or redeliver holds;
   * `wantsEvent` and the webhook's aim decide on its tables, filter and watched
   * fields, as for the fan-out), a page at a time, each page counted on the
   * recovery as it opens. Answers false when told to stop first: the recovery stays running and, once
   * its lease ends, any replica goes on where it stopped.
   */
  async runRecovery(recovery: Recovery, keepGoing: () => boolean, renewLease: () => Promise<void>): Promise<boolean> {
    const webhook = await this.webhooks.findOwned(recovery.organization_id, recovery.webhook_id);
    if (!webhook) return true;
    const window = { kinds: webhook.events, since: recovery.since, until: recovery.until };
    const aim = compileAim(webhook);
    let after: RecoveryCursor | undefined;
    for (;;) {
      if (!keepGoing()) return false;
      const { candidates, next } = await this.store.recoveryCandidates(webhook.organization_id, webhook.id, window, after, RECOVERY_PAGE);
      const wanted = candidates.filter(
        (event) => wantsEvent(webhook, { eventType: event.event_type, tableId: event.table_id }) && aimAllows(aim, aimedEvent(event.event_type, event.data)),
      );
      await this.queueSeries(await this.store.openRecovery(recovery.id, webhook.id, wanted));
      if (!next) return true;
      after = next;
      await renewLease();
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
