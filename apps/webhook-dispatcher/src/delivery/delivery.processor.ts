import { Injectable } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { SecretCipher } from '../secrets/secret-cipher';
import { WebhooksConfig } from '../webhooks.config';
import { DeliveriesRepository } from '../webhooks/deliveries.repository';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { DELIVERY_ATTEMPTS, DeliveryJob } from './delivery-job';
import { attemptDuration, deliveryOutcomes } from './delivery-metrics';
import { WebhookSender } from './webhook-sender';

/** A failed attempt; thrown so BullMQ schedules the next one, or gives up after the last. */
export class DeliveryFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryFailedError';
  }
}

export type AttemptResult = 'delivered' | 'skipped';

/** How soon a job is tried again when our own storage failed, which is not the receiver's fault. */
export const STORAGE_RETRY_MS = 1_000;

/**
 * One attempt of one job: re-reads the webhook (a disabled, unsubscribed or deleted one gets nothing),
 * signs and sends, records the attempt, and moves the webhook between active and failed.
 */
@Injectable()
export class DeliveryProcessor {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly cipher: SecretCipher,
    private readonly sender: WebhookSender,
    private readonly config: WebhooksConfig,
  ) {}

  /**
   * Only the receiver's failures use up its six attempts: when reading or recording fails on our side
   * (Postgres restarting, say), the job goes back to wait a moment with its attempt count unchanged.
   */
  async attempt(job: Job<DeliveryJob>, token?: string): Promise<AttemptResult> {
    try {
      return await this.deliver(job);
    } catch (error) {
      if (error instanceof DeliveryFailedError || !token) throw error;
      deliveryOutcomes.inc({ outcome: 'postponed' });
      await job.moveToDelayed(Date.now() + STORAGE_RETRY_MS, token);
      throw new DelayedError();
    }
  }

  private async deliver(job: Job<DeliveryJob>): Promise<AttemptResult> {
    const { webhookId, eventId, eventType, organizationId, body } = job.data;
    const webhook = await this.webhooks.findForDelivery(webhookId);
    if (!webhook || !webhook.active || webhook.organization_id !== organizationId || !webhook.events.includes(eventType)) {
      deliveryOutcomes.inc({ outcome: 'skipped' });
      return 'skipped';
    }
    const attempt = Math.min(job.attemptsMade + 1, DELIVERY_ATTEMPTS);
    const outcome = await this.sender.send({
      url: webhook.url,
      secret: this.cipher.decrypt(webhook.secret_ciphertext, webhook.id),
      body,
      eventType,
      eventId,
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
    });
    attemptDuration.observe({ success: String(outcome.success) }, outcome.durationMs / 1000);
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
    const exhausted = attempt >= DELIVERY_ATTEMPTS;
    deliveryOutcomes.inc({ outcome: exhausted ? 'exhausted' : 'failure' });
    if (exhausted) await this.webhooks.markFailed(webhookId);
    throw new DeliveryFailedError(outcome.errorMessage ?? 'Delivery failed');
  }
}
