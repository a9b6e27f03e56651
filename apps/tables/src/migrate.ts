import { BaseConfig, loadConfig } from '@platform/config';
import { migrateSchema } from '@platform/persistence';
import { runMain } from '@platform/service';
import { tablesSchema } from './tables-schema';

runMain('tables-migrate', async () => {
  const config = loadConfig(BaseConfig);
  const applied = await migrateSchema(tablesSchema(config.DATABASE_URL));
  process.stdout.write(`${JSON.stringify({ schema: 'tables', applied })}\n`);
});
