import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller';

/** HTTP routes of the webhooks context, forwarded to its service over NATS. */
@Module({ controllers: [WebhooksController] })
export class WebhooksRoutesModule {}
