import { BaseConfig, loadConfig } from '@platform/config';
import { migrateSchema } from '@platform/persistence';
import { runMain } from '@platform/service';
import { domainsSchema } from './domains-schema';

runMain('domains-migrate', async () => {
  const config = loadConfig(BaseConfig);
  const applied = await migrateSchema(domainsSchema(config.DATABASE_URL));
  process.stdout.write(`${JSON.stringify({ schema: 'domains', applied })}\n`);
});
