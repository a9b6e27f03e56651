import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateWebhookBody,
  PageQuery,
  ServiceRequest,
  ServiceResult,
  TestWebhookParams,
  UpdateWebhookParams,
  WebhookDeliveriesParams,
  WebhookIdParams,
  WebhooksPatterns,
} from '@contracts';
import { parseParams } from './request-params';
import { WebhooksService } from './webhooks.service';

/** Request-reply handlers of the webhooks context (queue group `webhooks`). */
@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @MessagePattern(WebhooksPatterns.list)
  async list(@Payload() request: ServiceRequest): Promise<ServiceResult> {
    return this.webhooks.list(request.org.id, parseParams(PageQuery, request.params));
  }

  @MessagePattern(WebhooksPatterns.create)
  async create(@Payload() request: ServiceRequest): Promise<ServiceResult> {
    return this.webhooks.create(request.org.id, parseParams(CreateWebhookBody, request.params));
  }

  @MessagePattern(WebhooksPatterns.update)
  async update(@Payload() request: ServiceRequest): Promise<ServiceResult> {
    return this.webhooks.update(request.org.id, parseParams(UpdateWebhookParams, request.params));
  }

  @MessagePattern(WebhooksPatterns.remove)
  async remove(@Payload() request: ServiceRequest): Promise<ServiceResult> {
    return this.webhooks.remove(request.org.id, parseParams(WebhookIdParams, request.params).webhookId);
  }

  @MessagePattern(WebhooksPatterns.deliveries)
  async deliveries(@Payload() request: ServiceRequest): Promise<ServiceResult> {
    return this.webhooks.deliveriesOf(request.org.id, parseParams(WebhookDeliveriesParams, request.params));
  }

  @MessagePattern(WebhooksPatterns.test)
  async test(@Payload() request: ServiceRequest): Promise<ServiceResult> {
    return this.webhooks.test(request.org.id, parseParams(TestWebhookParams, request.params));
  }
}
