import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { EventStoreRepository } from '../event-store/event-store.repository';
import { SecretCipher } from '../secrets/secret-cipher';
import { signingSecrets } from '../secrets/signing-secrets';
import { WebhooksConfig } from '../webhooks.config';
import { DeliveriesRepository } from '../webhooks/deliveries.repository';
import { wantsEvent } from '../dispatch/webhook-subscription';
import { SealedWebhookRecord } from '../webhooks/webhook-record';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { attemptNumber, DELIVERY_ATTEMPTS, DeliveryJob, deliveryJobId, retryDelay } from './delivery-job';
import { DeliveryQueue } from './delivery-queue';
import { InFlightLeases, SlotOutcome } from './in-flight-leases';
import { attemptDuration, deliveryOutcomes } from './delivery-metrics';
import { WebhookSender } from './webhook-sender';

/** A failed attempt; thrown so BullMQ schedules the next one, or gives up after the last. */
export class DeliveryFailedError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'DeliveryFailedError';
  }
}

export type AttemptResult = 'delivered' | 'skipped';

/** How soon a job is tried again when our own storage failed, which is not the receiver's fault. */
export const STORAGE_RETRY_MS = 1_000;
/**
 * How far ahead a job that finds its webhook's slots taken is parked in the delayed set: a freed slot or
 * the sweep wakes it long before, so it costs the workers nothing while it waits; this only bounds the
 * wait should the parking lists in Redis be lost.
 */
export const PARK_MS = 10 * 60_000;

/**
 * Whether a job may still be sent to this webhook. The fan-out's deliveries stop when the webhook is
 * disabled or unsubscribes (from the kind, or from the event's table); a redelivery or recovery the
 * customer asked for goes out regardless.
 */
function stillWanted(webhook: SealedWebhookRecord | undefined, job: DeliveryJob): webhook is SealedWebhookRecord {
  if (!webhook || webhook.organization_id !== job.organizationId) return false;
  return job.explicit === true || (webhook.active && wantsEvent(webhook, { eventType: job.eventType, tableId: job.tableId ?? null }));
}

/**
 * One attempt of one job: re-reads the webhook, signs and sends, records the attempt with its series'
 * progress, and moves the webhook between active and failed.
 */
@Injectable()
export class DeliveryProcessor {
  private readonly logger = new Logger('DeliveryProcessor');

  constructor(
    private readonly leases: InFlightLeases,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly events: EventStoreRepository,
    private readonly cipher: SecretCipher,
    private readonly sender: WebhookSender,
    private readonly config: WebhooksConfig,
  ) {}

  /**
   * Only the receiver's failures use up its six attempts. A job that finds its webhook's in-flight slots
   * taken is parked in the delayed set until a slot is free for it; when reading or recording fails on our side (Postgres
   * restarting, say), the job goes back to wait a moment. Neither changes its attempt count or schedule.
   */
  async attempt(job: Job<DeliveryJob>, token?: string): Promise<AttemptResult> {
    const holder = job.id ?? deliveryJobId(job.data);
    let leased = false;
    let outcome: SlotOutcome = 'other';
    try {
      leased = await this.leases.acquire(job.data.webhookId, holder);
      if (!leased) {
        deliveryOutcomes.inc({ outcome: 'parked' });
        if (token) await job.moveToDelayed(Date.now() + PARK_MS, token);
        throw new DelayedError();
      }
      const result = await this.deliver(job);
      if (result === 'delivered') outcome = 'success';
      return result;
    } catch (error) {
      if (error instanceof DeliveryFailedError && error.timedOut) outcome = 'timeout';
      if (error instanceof DeliveryFailedError || error instanceof DelayedError || !token) throw error;
      deliveryOutcomes.inc({ outcome: 'postponed' });
      await job.moveToDelayed(Date.now() + STORAGE_RETRY_MS, token);
      throw new DelayedError();
    } finally {
      if (leased) await this.releaseSlot(job.data.webhookId, holder, outcome);
    }
  }

  /** Frees the slot and wakes the parked job due longest; a slot that cannot be freed lapses by itself. */
  private async releaseSlot(webhookId: string, holder: string, outcome: SlotOutcome): Promise<void> {
    try {
      const next = await this.leases.release(webhookId, holder, outcome);
      if (next) await this.deliveryQueue.promote(next);
    } catch (error) {
      this.logger.warn({ err: error, webhookId }, 'could not free an in-flight slot; it lapses at its expiry');
    }
  }

  private async deliver(job: Job<DeliveryJob>): Promise<AttemptResult> {
    const { webhookId, eventId, eventType, organizationId, body, seriesId } = job.data;
    const webhook = await this.webhooks.findForDelivery(webhookId);
    if (!stillWanted(webhook, job.data)) {
      if (seriesId) await this.events.finishSeries(seriesId);
      deliveryOutcomes.inc({ outcome: 'skipped' });
      return 'skipped';
    }
    const attempt = attemptNumber(job.data, job.attemptsMade);
    const outcome = await this.sender.send({
      url: webhook.url,
      secrets: signingSecrets(this.cipher, webhook),
      body,
      eventType,
      eventId,
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
    });
    attemptDuration.observe({ success: String(outcome.success) }, outcome.durationMs / 1000);
    const exhausted = !outcome.success && attempt >= DELIVERY_ATTEMPTS;
    const recorded = await this.deliveries.record({
      id: outcome.deliveryId,
      webhookId,
      organizationId,
      eventId,
      eventType,
      attempt,
      statusCode: outcome.statusCode,
      durationMs: outcome.durationMs,
      success: outcome.success,
      errorMessage: outcome.errorMessage,
      createdAt: outcome.startedAt,
      seriesId,
      nextRetryAt: outcome.success || exhausted ? undefined : new Date(Date.now() + retryDelay(this.config.retryDelays, attempt)),
    });
    if (!recorded) {
      deliveryOutcomes.inc({ outcome: 'skipped' });
      return 'skipped';
    }
    if (outcome.success) {
      deliveryOutcomes.inc({ outcome: 'success' });
      if (webhook.failed_at) await this.webhooks.markRecovered(webhookId);
      return 'delivered';
    }
    deliveryOutcomes.inc({ outcome: exhausted ? 'exhausted' : 'failure' });
    if (exhausted) await this.webhooks.markFailed(webhookId);
    throw new DeliveryFailedError(outcome.errorMessage ?? 'Delivery failed', outcome.timedOut);
  }
}
