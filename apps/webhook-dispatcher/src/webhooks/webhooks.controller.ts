import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  CreateWebhookBody,
  OrgContext,
  PageQuery,
  RecoverParams,
  RecoveryParams,
  RedeliverParams,
  RotateSecretParams,
  ServiceResult,
  TestWebhookParams,
  UpdateWebhookParams,
  WebhookDeliveriesParams,
  WebhookIdParams,
  WebhooksPatterns,
} from '@contracts';
import { Org, Params, RequestId } from '@platform/messaging';
import { RedeliveryService } from '../event-store/redelivery.service';
import { WebhooksService } from './webhooks.service';

/** Request-reply handlers of the webhooks context (queue group `webhooks`). */
@Controller()
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly redelivery: RedeliveryService,
  ) {}

  @MessagePattern(WebhooksPatterns.list)
  async list(@Org() org: OrgContext, @Params() params: PageQuery): Promise<ServiceResult> {
    return this.webhooks.list(org.id, params);
  }

  @MessagePattern(WebhooksPatterns.get)
  async get(@Org() org: OrgContext, @Params() params: WebhookIdParams): Promise<ServiceResult> {
    return this.webhooks.get(org.id, params.webhookId);
  }

  @MessagePattern(WebhooksPatterns.create)
  async create(@Org() org: OrgContext, @RequestId() requestId: string, @Params() params: CreateWebhookBody): Promise<ServiceResult> {
    return this.webhooks.create({ org, requestId }, params);
  }

  @MessagePattern(WebhooksPatterns.update)
  async update(@Org() org: OrgContext, @RequestId() requestId: string, @Params() params: UpdateWebhookParams): Promise<ServiceResult> {
    return this.webhooks.update({ org, requestId }, params);
  }

  @MessagePattern(WebhooksPatterns.remove)
  async remove(@Org() org: OrgContext, @Params() params: WebhookIdParams): Promise<ServiceResult> {
    return this.webhooks.remove(org.id, params.webhookId);
  }

  @MessagePattern(WebhooksPatterns.deliveries)
  async deliveries(@Org() org: OrgContext, @Params() params: WebhookDeliveriesParams): Promise<ServiceResult> {
    return this.webhooks.deliveriesOf(org.id, params);
  }

  @MessagePattern(WebhooksPatterns.rotateSecret)
  async rotateSecret(@Org() org: OrgContext, @Params() params: RotateSecretParams): Promise<ServiceResult> {
    return this.webhooks.rotateSecret(org.id, params);
  }

  @MessagePattern(WebhooksPatterns.redeliver)
  async redeliver(@Org() org: OrgContext, @Params() params: RedeliverParams): Promise<ServiceResult> {
    return this.redelivery.redeliver(org.id, params);
  }

  @MessagePattern(WebhooksPatterns.recover)
  async recover(@Org() org: OrgContext, @Params() params: RecoverParams): Promise<ServiceResult> {
    return this.redelivery.recover(org.id, params);
  }

  @MessagePattern(WebhooksPatterns.recovery)
  async recovery(@Org() org: OrgContext, @Params() params: RecoveryParams): Promise<ServiceResult> {
    return this.redelivery.recovery(org.id, params);
  }

  @MessagePattern(WebhooksPatterns.test)
  async test(@Org() org: OrgContext, @Params() params: TestWebhookParams): Promise<ServiceResult> {
    return this.webhooks.test(org.id, params);
  }
}
