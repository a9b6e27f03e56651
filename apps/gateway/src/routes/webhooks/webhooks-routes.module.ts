import { Module } from '@nestjs/common';

/** HTTP routes of the webhooks context, forwarded to its service over NATS. */
@Module({ controllers: [] })
export class WebhooksRoutesModule {}
