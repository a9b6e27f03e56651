import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { WebhooksConfig } from './webhooks.config';
import { WebhooksModule } from './webhooks.module';

runMain('webhook-dispatcher', async () => {
  const config = loadConfig(WebhooksConfig);
  await bootstrapService({ name: 'webhook-dispatcher', module: WebhooksModule.forRoot(config), config, queue: 'webhooks' });
});
