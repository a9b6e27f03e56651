import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  PageQuery,
  RecoverBody,
  RotateSecretBody,
  TestWebhookBody,
  UpdateWebhookBody,
  WebhookCreatedView,
  WebhookDeliveryView,
  WebhookRecoveryStartedView,
  WebhookRecoveryView,
  WebhookRedeliveryView,
  WebhookSecretRotatedView,
  WebhookTestResultView,
  WebhookUpdatedView,
  WebhookView,
  WebhooksPatterns,
} from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { ApiData } from '../../openapi/api-data.decorator';
import { OptionalBodyPipe } from '../../http/optional-body.pipe';

/** The test endpoint waits for the receiver, which has 30 s (the contract's delivery timeout) to answer. */
const TEST_DELIVERY_DEADLINE_MS = 35_000;

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('webhooks:read')
  @ApiOperation({ operationId: 'listWebhooks', summary: 'List webhooks (never with their secrets)' })
  @ApiData(WebhookView)
  list(@CallerOf() caller: Caller, @Query() query: PageQuery) {
    return this.bus.send(WebhooksPatterns.list, caller, { page: query.page, limit: query.limit });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('webhooks:write')
  @ApiOperation({ operationId: 'createWebhook', summary: 'Create a webhook; the answer carries its signing secret, once' })
  @ApiData(WebhookCreatedView, 201)
  create(@CallerOf() caller: Caller, @Body() body: CreateWebhookBody) {
    return this.bus.send(WebhooksPatterns.create, caller, body);
  }

  @Get(':webhook_id')
  @RequireScope('webhooks:read')
  @ApiOperation({ operationId: 'getWebhook', summary: 'Get a webhook (never with its secret)' })
  @ApiData(WebhookView)
  @ApiParam({ name: 'webhook_id', format: 'uuid' })
  get(@CallerOf() caller: Caller, @Param('webhook_id', ResourceIdPipe) webhookId: string) {
    return this.bus.send(WebhooksPatterns.get, caller, { webhookId });
  }

  @Patch(':webhook_id')
  @RequireScope('webhooks:write')
  @ApiOperation({ operationId: 'updateWebhook', summary: 'Rename, re-target, change events, disable or enable a webhook' })
  @ApiData(WebhookUpdatedView)
  @ApiParam({ name: 'webhook_id', format: 'uuid' })
  update(@CallerOf() caller: Caller, @Param('webhook_id', ResourceIdPipe) webhookId: string, @Body() body: UpdateWebhookBody) {
    return this.bus.send(WebhooksPatterns.update, caller, { ...body, webhookId });
  }

  @Delete(':webhook_id')
  @RequireScope('webhooks:write')
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Delete a webhook and cancel its pending retries' })
  @ApiParam({ name: 'webhook_id', format: 'uuid' })
  remove(@CallerOf() caller: Caller, @Param('webhook_id', ResourceIdPipe) webhookId: string) {
    return this.bus.send(WebhooksPatterns.remove, caller, { webhookId });
  }

  @Post(':webhook_id/rotate-secret')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @ApiOperation({ operationId: 'rotateWebhookSecret', summary: 'Replace the signing secret; the previous one keeps signing beside it until it expires' })
  @ApiData(WebhookSecretRotatedView)
  @ApiParam({ name: 'webhook_id', format: 'uuid' })
  @ApiBody({ type: RotateSecretBody, required: false })
  rotateSecret(
    @CallerOf() caller: Caller,
    @Param('webhook_id', ResourceIdPipe) webhookId: string,
    @Body(new OptionalBodyPipe(RotateSecretBody)) body: RotateSecretBody | undefined,
  ) {
    return this.bus.send(WebhooksPatterns.rotateSecret, caller, { ...body, webhookId });
  }

  @Get(':webhook_id/deliveries')
  @RequireScope('webhooks:read')
  @ApiOperation({ operationId: 'listWebhookDeliveries', summary: 'Delivery attempts, newest first' })
  @ApiData(WebhookDeliveryView)
  @ApiParam({ name: 'webhook_id', format: 'uuid' })
  deliveries(@CallerOf() caller: Caller, @Param('webhook_id', ResourceIdPipe) webhookId: string, @Query() query: DeliveriesQuery) {
    return this.bus.send(WebhooksPatterns.deliveries, caller, { ...query, webhookId });
  }

  @Post(':webhook_id/deliveries/:delivery_id/redeliver')
  @HttpCode(201)
  @RequireScope('webhooks:write')
  @ApiOperation({ operationId: 'redeliverWebhookDelivery', summary: "Queue that delivery's event again for this webhook, as a new series with the normal retries" })
  @ApiData(WebhookRedeliveryView, 201)
  @ApiParam({ name: 'webhook_id', format: 'uuid' })
  @ApiParam({ name: 'delivery_id', format: 'uuid' })
  redeliver(
    @CallerOf() caller: Caller,
    @Param('webhook_id', ResourceIdPipe) webhookId: string,
    @Param('delivery_id', ResourceIdPipe) deliveryId: string,
  ) {
    return this.bus.send(WebhooksPatterns.redeliver, caller, { webhookId, deliveryId });
  }

  @Post(':webhook_id/recover')
  @HttpCode(202)
  @RequireScope('webhooks:write')
  @ApiOperation({
    operationId: 'recoverWebhookEvents',
    summary: 'Start queueing again, in the background, every stored event of the subscribed kinds in a window that this webhook never received; one recovery of a webhook at a time',
  })
  @ApiData(WebhookRecoveryStartedView, 202)
  @ApiParam({ name: 'webhook_id', format: 'uuid' })
  recover(@CallerOf() caller: Caller, @Param('webhook_id', ResourceIdPipe) webhookId: string, @Body() body: RecoverBody) {
    return this.bus.send(WebhooksPatterns.recover, caller, { ...body, webhookId });
  }

  @Get(':webhook_id/recoveries/:recovery_id')
  @RequireScope('webhooks:read')
  @ApiOperation({ operationId: 'getWebhookRecovery', summary: 'How far a recovery got: its status and how many events it queued' })
  @ApiData(WebhookRecoveryView)
  @ApiParam({ name: 'webhook_id', format: 'uuid' })
  @ApiParam({ name: 'recovery_id', format: 'uuid' })
  recovery(
    @CallerOf() caller: Caller,
    @Param('webhook_id', ResourceIdPipe) webhookId: string,
    @Param('recovery_id', ResourceIdPipe) recoveryId: string,
  ) {
    return this.bus.send(WebhooksPatterns.recovery, caller, { webhookId, recoveryId });
  }

  @Post(':webhook_id/test')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @ApiOperation({ operationId: 'testWebhook', summary: 'Send a signed webhook.test now and answer what the receiver said' })
  @ApiData(WebhookTestResultView)
  @ApiParam({ name: 'webhook_id', format: 'uuid' })
  @ApiBody({ type: TestWebhookBody, required: false })
  test(
    @CallerOf() caller: Caller,
    @Param('webhook_id', ResourceIdPipe) webhookId: string,
    @Body(new OptionalBodyPipe(TestWebhookBody)) body: TestWebhookBody | undefined,
  ) {
    return this.bus.send(WebhooksPatterns.test, caller, { ...body, webhookId }, { timeoutMs: TEST_DELIVERY_DEADLINE_MS });
  }
}
