import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@platform/service';
import { WebhooksConfig } from './webhooks.config';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';

@Module({})
export class WebhooksModule {
  static forRoot(config: WebhooksConfig): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [ServiceCoreModule.forRoot({ name: 'webhook-dispatcher', config, database: { schema: WEBHOOKS_SCHEMA } })],
    };
  }
}
