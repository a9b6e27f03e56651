import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CreateWebhookBody,
  DEFAULT_SECRET_OVERLAP_SECONDS,
  DomainEvent,
  MAX_WEBHOOKS_PER_ORGANIZATION,
  PageQuery,
  pageOffset,
  ServiceResult,
  WEBHOOK_TEST_EVENT,
  WebhookCreatedView,
  WebhookDeliveryView,
  WebhookSecretRotatedView,
  WebhookTestEventData,
  WebhookTestResultView,
  WebhookUpdatedView,
  WebhookView,
  WebhooksOperations,
  OperationInput,
} from '@contracts';
import { AppError } from '@platform/errors';
import type { ServiceCaller } from '@platform/messaging';
import { deliveryOutcomes } from '../delivery/delivery-metrics';
import { attemptRecord, RESPONSE_BODY_LIMIT, WebhookSender } from '../delivery/webhook-sender';
import { SecretCipher } from '../secrets/secret-cipher';
import { signingSecrets } from '../secrets/signing-secrets';
import { generateWebhookSecret } from '../secrets/webhook-secret';
import { TargetRefusedError, TargetResolver } from '../targets/target-resolver';
import { WebhooksApiConfig } from '../webhooks.config';
import { DeliveriesRepository } from './deliveries.repository';
import { OperationalEvents } from './operational-events';
import { OrganizationTables } from './organization-tables';
import { AimRequest, aimedTable, checkAim, CheckedAim, hasAim, NO_AIM } from './webhook-aim-check';
import type { WebhookRecord } from './webhook-record';
import { createdView, deliveryView, listView, updatedView } from './webhook-views';
import { SubscriptionChanges } from './subscription-changes';
import { WebhooksRepository } from './webhooks.repository';

/** Webhook management for one organization at a time: every lookup is scoped by its id. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly cipher: SecretCipher,
    private readonly resolver: TargetResolver,
    private readonly sender: WebhookSender,
    private readonly config: WebhooksApiConfig,
    private readonly tables: OrganizationTables,
    private readonly operational: OperationalEvents,
    private readonly changes: SubscriptionChanges,
  ) {}

  async list(organizationId: string, query: PageQuery): Promise<ServiceResult<WebhookView[]>> {
    const { rows, total } = await this.webhooks.page(organizationId, query.limit, pageOffset(query));
    return { data: rows.map(listView), pagination: { page: query.page, limit: query.limit, total } };
  }

  async get(organizationId: string, webhookId: string): Promise<ServiceResult<WebhookView>> {
    const webhook = await this.webhooks.findOwned(organizationId, webhookId);
    if (!webhook) throw AppError.notFound('Webhook');
    return { data: listView(webhook) };
  }

  async create(asker: ServiceCaller, body: CreateWebhookBody): Promise<ServiceResult<WebhookCreatedView>> {
    const organizationId = asker.org.id;
    await this.checkTarget(body.url);
    const tableIds = (await this.ownedTableIds(asker, body.table_ids)) ?? null;
    const aim = await this.checkedAim(asker, { filter: body.filter ?? null, watch_fields: body.watch_fields ?? null }, tableIds);
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const webhook = await this.webhooks.insertWithin(MAX_WEBHOOKS_PER_ORGANIZATION, {
      id,
      organizationId,
      name: body.name,
      url: body.url,
      events: body.events,
      tableIds,
      aim,
      rateLimit: body.rate_limit ?? null,
      secretCiphertext: this.cipher.encrypt(secret, id),
    });
    if (!webhook) throw AppError.limitExceeded(`An organization holds at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks; delete one to create another`);
    await this.changes.announce(organizationId);
    return { data: createdView(webhook, secret) };
  }

  async update(asker: ServiceCaller, params: OperationInput<typeof WebhooksOperations.update>): Promise<ServiceResult<WebhookUpdatedView>> {
    const organizationId = asker.org.id;
    const current = await this.webhooks.findOwned(organizationId, params.webhookId);
    if (!current) throw AppError.notFound('Webhook');
    if (params.url !== undefined) await this.checkTarget(params.url);
    const tableIds = await this.ownedTableIds(asker, params.table_ids);
    const { name, url, events, active } = params;
    const aim = await this.changedAim(asker, params, current, tableIds);
    const rateLimit = params.rate_limit;
    const webhook = await this.webhooks.update(organizationId, params.webhookId, { name, url, events, active, tableIds, aim, rateLimit });
    if (!webhook) throw AppError.notFound('Webhook');
    await this.changes.announce(organizationId);
    return { data: updatedView(webhook) };
  }

  async remove(organizationId: string, webhookId: string): Promise<ServiceResult<never>> {
    // The worker re-reads the webhook before every attempt, so its queued jobs send nothing from now on;
    // WebhookPurger removes them and the webhook's records in the background.
    if (!(await this.webhooks.delete(organizationId, webhookId))) throw AppError.notFound('Webhook');
    await this.changes.announce(organizationId);
    return { message: 'Webhook deleted' };
  }

  /** A new current secret; the replaced one keeps signing beside it until the overlap ends. */
  async rotateSecret(organizationId: string, params: OperationInput<typeof WebhooksOperations.rotateSecret>): Promise<ServiceResult<WebhookSecretRotatedView>> {
    const secret = generateWebhookSecret();
    const overlapSeconds = params.expire_previous_in_seconds ?? DEFAULT_SECRET_OVERLAP_SECONDS;
    const previousExpiresAt = new Date(Date.now() + overlapSeconds * 1000);
    const sealed = this.cipher.encrypt(secret, params.webhookId);
    if (!(await this.webhooks.rotateSecret(organizationId, params.webhookId, sealed, previousExpiresAt))) throw AppError.notFound('Webhook');
    // The workers forget the secrets they hold: the next attempt signs with the new one.
    await this.changes.announce(organizationId);
    return { data: { id: params.webhookId, secret, previous_secret_expires_at: previousExpiresAt.toISOString() } };
  }

  async deliveriesOf(organizationId: string, params: OperationInput<typeof WebhooksOperations.deliveries>): Promise<ServiceResult<WebhookDeliveryView[]>> {
    if (!(await this.webhooks.findOwned(organizationId, params.webhookId))) throw AppError.notFound('Webhook');
    const filter = { success: params.success, eventType: params.event_type };
    const { rows, total } = await this.deliveries.page(organizationId, params.webhookId, filter, params.limit, pageOffset(params));
    return { data: rows.map(deliveryView), pagination: { page: params.page, limit: params.limit, total } };
  }

  /** Sends a signed `webhook.test` now and waits for it; recorded as a delivery, never retried. */
  async test(organizationId: string, params: OperationInput<typeof WebhooksOperations.test>): Promise<ServiceResult<WebhookTestResultView>> {
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
      secrets: signingSecrets(this.cipher, webhook),
      body: JSON.stringify(event),
      eventType: event.event,
      eventId: event.id,
      timeoutMs: Math.min(this.config.WEBHOOK_TIMEOUT_MS, this.config.WEBHOOK_TEST_TIMEOUT_MS),
      responseLimit: RESPONSE_BODY_LIMIT,
    });
    deliveryOutcomes.inc({ outcome: 'test' });
    await this.deliveries.record({ ...attemptRecord(outcome), webhookId: webhook.id, organizationId, eventId: event.id, eventType: event.event, attempt: 1 });
    if (outcome.success && webhook.failed_at) await this.operational.recovered(webhook.id);
    return {
      data: {
        status_code: outcome.statusCode,
        duration_ms: outcome.durationMs,
        response_body: outcome.responseBody,
        ...(outcome.errorMessage ? { error_message: outcome.errorMessage } : {}),
      },
    };
  }

  /** The filter and watched fields checked against the fields of the webhook's one table. */
  private async checkedAim(asker: ServiceCaller, aim: AimRequest, tableIds: readonly string[] | null): Promise<CheckedAim> {
    if (!hasAim(aim)) return NO_AIM;
    const tableId = aimedTable(aim, tableIds);
    return checkAim(aim, await this.tables.fieldsOf(asker, tableId));
  }

  /**
   * An update that gives a filter, watched fields or tables checks the aim that results against the table
   * as it is now (and so clears a `filter_error`); any other update leaves the aim as it was.
   */
  private async changedAim(asker: ServiceCaller, params: OperationInput<typeof WebhooksOperations.update>, current: WebhookRecord, tableIds: string[] | null | undefined): Promise<CheckedAim | undefined> {
    if (params.filter === undefined && params.watch_fields === undefined && tableIds === undefined) return undefined;
    const aim = {
      filter: params.filter === undefined ? current.filter : params.filter,
      watch_fields: params.watch_fields === undefined ? current.watch_fields : params.watch_fields,
    };
    return this.checkedAim(asker, aim, tableIds === undefined ? current.table_ids : tableIds);
  }

  /** Absent stays absent and null stays null (every table); a list must name tables of the organization. */
  private async ownedTableIds(asker: ServiceCaller, tableIds: string[] | null | undefined): Promise<string[] | null | undefined> {
    if (tableIds === undefined || tableIds === null) return tableIds;
    return this.tables.ownedTableIds(asker, tableIds);
  }

  /** Refuses a URL whose host is or resolves to an address webhooks may not reach. */
  private async checkTarget(url: string): Promise<void> {
    if (this.config.allowPrivateTargets) return;
    try {
      await this.resolver.resolve(new URL(url));
    } catch (error) {
      if (error instanceof TargetRefusedError) throw AppError.validation('url', `${error.message} (a deployment allows such targets with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)`);
      throw error;
    }
  }
}
