import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { WebhooksApiConfig } from './webhooks.config';
import { WebhooksModule } from './webhooks.module';

runMain('webhooks', async () => {
  const config = loadConfig(WebhooksApiConfig);
  await bootstrapService({ name: 'webhooks', module: WebhooksModule.forRoot(config), config, queue: 'webhooks' });
});
