import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateWebhookBody, PageQuery, TestWebhookBody, UpdateWebhookBody, WebhooksPatterns } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { OptionalBodyPipe } from './optional-body.pipe';

/** The test endpoint waits for the receiver, which has 30 s (the contract's delivery timeout) to answer. */
const TEST_DELIVERY_DEADLINE_MS = 35_000;

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('webhooks:read')
  @ApiOperation({ summary: 'List webhooks (never with their secrets)' })
  list(@CallerOf() caller: Caller, @Query() query: PageQuery) {
    return this.bus.send(WebhooksPatterns.list, caller, { page: query.page, limit: query.limit });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('webhooks:write')
  @ApiOperation({ summary: 'Create a webhook; the answer carries its signing secret, once' })
  create(@CallerOf() caller: Caller, @Body() body: CreateWebhookBody) {
    return this.bus.send(WebhooksPatterns.create, caller, body);
  }

  @Patch(':webhookId')
  @RequireScope('webhooks:write')
  @ApiOperation({ summary: 'Rename, re-target, change events, disable or enable a webhook' })
  @ApiParam({ name: 'webhookId', format: 'uuid' })
  update(@CallerOf() caller: Caller, @Param('webhookId', ResourceIdPipe) webhookId: string, @Body() body: UpdateWebhookBody) {
    return this.bus.send(WebhooksPatterns.update, caller, { ...body, webhookId });
  }

  @Delete(':webhookId')
  @RequireScope('webhooks:write')
  @ApiOperation({ summary: 'Delete a webhook and cancel its pending retries' })
  @ApiParam({ name: 'webhookId', format: 'uuid' })
  remove(@CallerOf() caller: Caller, @Param('webhookId', ResourceIdPipe) webhookId: string) {
    return this.bus.send(WebhooksPatterns.remove, caller, { webhookId });
  }

  @Get(':webhookId/deliveries')
  @RequireScope('webhooks:read')
  @ApiOperation({ summary: 'Delivery attempts, newest first' })
  @ApiParam({ name: 'webhookId', format: 'uuid' })
  deliveries(@CallerOf() caller: Caller, @Param('webhookId', ResourceIdPipe) webhookId: string, @Query() query: PageQuery) {
    return this.bus.send(WebhooksPatterns.deliveries, caller, { webhookId, page: query.page, limit: query.limit });
  }

  @Post(':webhookId/test')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @ApiOperation({ summary: 'Send a signed webhook.test now and answer what the receiver said' })
  @ApiParam({ name: 'webhookId', format: 'uuid' })
  @ApiBody({ type: TestWebhookBody, required: false })
  test(
    @CallerOf() caller: Caller,
    @Param('webhookId', ResourceIdPipe) webhookId: string,
    @Body(new OptionalBodyPipe(TestWebhookBody)) body: TestWebhookBody | undefined,
  ) {
    return this.bus.send(WebhooksPatterns.test, caller, { ...body, webhookId }, { timeoutMs: TEST_DELIVERY_DEADLINE_MS });
  }
}
