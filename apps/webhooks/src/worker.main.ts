import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { WebhooksWorkerConfig } from './webhooks.config';
import { WorkerModule } from './worker.module';

runMain('webhooks-worker', async () => {
  const config = loadConfig(WebhooksWorkerConfig);
  await bootstrapService({ name: 'webhooks-worker', module: WorkerModule.forRoot(config), config });
});
