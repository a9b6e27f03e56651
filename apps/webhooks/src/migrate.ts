import { BaseConfig, loadConfig } from '@platform/config';
import { migrateSchema } from '@platform/persistence';
import { runMain } from '@platform/service';
import { webhooksSchema } from './webhooks-schema';

runMain('webhooks-migrate', async () => {
  const config = loadConfig(BaseConfig);
  const applied = await migrateSchema(webhooksSchema(config.DATABASE_URL));
  process.stdout.write(`${JSON.stringify({ schema: 'webhooks', applied })}\n`);
});
