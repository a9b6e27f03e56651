import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  CreateWebhookBody,
  DomainEvent,
  PageQuery,
  pageOffset,
  ServiceResult,
  TestWebhookParams,
  UpdateWebhookParams,
  WEBHOOK_TEST_EVENT,
  WebhookCreatedView,
  WebhookDeliveriesParams,
  WebhookDeliveryView,
  WebhookTestEventData,
  WebhookTestResultView,
  WebhookUpdatedView,
  WebhookView,
} from '@contracts';
import { AppError } from '@platform/errors';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { deliveryOutcomes } from '../delivery/delivery-metrics';
import { WebhookSender } from '../delivery/webhook-sender';
import { SecretCipher } from '../secrets/secret-cipher';
import { generateWebhookSecret } from '../secrets/webhook-secret';
import { TargetRefusedError, TargetResolver } from '../targets/target-resolver';
import { WebhooksApiConfig } from '../webhooks.config';
import { DeliveriesRepository } from './deliveries.repository';
import { createdView, deliveryView, listView, updatedView } from './webhook-views';
import { WebhooksRepository } from './webhooks.repository';

/** Webhook management for one organization at a time: every lookup is scoped by its id. */
@Injectable()
export class WebhooksService {
  private readonly logger = new Logger('WebhooksService');

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly cipher: SecretCipher,
    private readonly resolver: TargetResolver,
    private readonly sender: WebhookSender,
    private readonly queue: DeliveryQueue,
    private readonly config: WebhooksApiConfig,
  ) {}

  async list(organizationId: string, query: PageQuery): Promise<ServiceResult<WebhookView[]>> {
    const { rows, total } = await this.webhooks.page(organizationId, query.limit, pageOffset(query));
    return { data: rows.map(listView), pagination: { page: query.page, limit: query.limit, total } };
  }

  async create(organizationId: string, body: CreateWebhookBody): Promise<ServiceResult<WebhookCreatedView>> {
    await this.checkTarget(body.url);
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const webhook = await this.webhooks.insert({
      id,
      organizationId,
      name: body.name,
      url: body.url,
      events: body.events,
      secretCiphertext: this.cipher.encrypt(secret, id),
    });
    return { data: createdView(webhook, secret) };
  }

  async update(organizationId: string, params: UpdateWebhookParams): Promise<ServiceResult<WebhookUpdatedView>> {
    if (!(await this.webhooks.findOwned(organizationId, params.webhookId))) throw AppError.notFound('Webhook');
    if (params.url !== undefined) await this.checkTarget(params.url);
    const webhook = await this.webhooks.update(organizationId, params.webhookId, params);
    if (!webhook) throw AppError.notFound('Webhook');
    return { data: updatedView(webhook) };
  }

  async remove(organizationId: string, webhookId: string): Promise<ServiceResult> {
    if (!(await this.webhooks.delete(organizationId, webhookId))) throw AppError.notFound('Webhook');
    // The worker re-reads the webhook before every attempt, so a retry this misses still sends nothing.
    await this.queue.cancelPendingRetries(webhookId).catch((error: unknown) => {
      this.logger.warn({ err: error, webhookId }, 'could not remove pending retries of a deleted webhook');
    });
    return { message: 'Webhook deleted' };
  }

  async deliveriesOf(organizationId: string, params: WebhookDeliveriesParams): Promise<ServiceResult<WebhookDeliveryView[]>> {
    if (!(await this.webhooks.findOwned(organizationId, params.webhookId))) throw AppError.notFound('Webhook');
    const { rows, total } = await this.deliveries.page(organizationId, params.webhookId, params.limit, pageOffset(params));
    return { data: rows.map(deliveryView), pagination: { page: params.page, limit: params.limit, total } };
  }

  /** Sends a signed `webhook.test` now and waits for it; recorded as a delivery, never retried. */
  async test(organizationId: string, params: TestWebhookParams): Promise<ServiceResult<WebhookTestResultView>> {
    const webhook = await this.webhooks.findOwned(organizationId, params.webhookId);
    if (!webhook) throw AppError.notFound('Webhook');
    const data: WebhookTestEventData = { webhook_id: webhook.id, test: true, ...(params.event_type ? { event_type: params.event_type } : {}) };
    const event: DomainEvent<WebhookTestEventData> = {
      id: randomUUID(),
      event: WEBHOOK_TEST_EVENT,
      timestamp: new Date().toISOString(),
      organization_id: organizationId,
      data,
    };
    const outcome = await this.sender.send({
      url: webhook.url,
      secret: this.cipher.decrypt(webhook.secret_ciphertext, webhook.id),
      body: JSON.stringify(event),
      eventType: event.event,
      eventId: event.id,
      timeoutMs: Math.min(this.config.WEBHOOK_TIMEOUT_MS, this.config.WEBHOOK_TEST_TIMEOUT_MS),
      captureResponse: true,
    });
    deliveryOutcomes.inc({ outcome: 'test' });
    await this.deliveries.record({
      id: outcome.deliveryId,
      webhookId: webhook.id,
      organizationId,
      eventId: event.id,
      eventType: event.event,
      attempt: 1,
      statusCode: outcome.statusCode,
      durationMs: outcome.durationMs,
      success: outcome.success,
      errorMessage: outcome.errorMessage,
      createdAt: outcome.startedAt,
    });
    if (outcome.success && webhook.failed_at) await this.webhooks.markRecovered(webhook.id);
    return {
      data: {
        status_code: outcome.statusCode,
        duration_ms: outcome.durationMs,
        response_body: outcome.responseBody,
        ...(outcome.errorMessage ? { error_message: outcome.errorMessage } : {}),
      },
    };
  }

  /** Refuses a URL whose host is or resolves to an address webhooks may not reach. */
  private async checkTarget(url: string): Promise<void> {
    if (this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS) return;
    try {
      await this.resolver.resolve(new URL(url));
    } catch (error) {
      if (error instanceof TargetRefusedError) throw AppError.validation('url', error.message);
      throw error;
    }
  }
}
