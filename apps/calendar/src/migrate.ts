import { BaseConfig, loadConfig } from '@platform/config';
import { migrateSchema } from '@platform/persistence';
import { runMain } from '@platform/service';
import { calendarSchema } from './calendar-schema';

runMain('calendar-migrate', async () => {
  const config = loadConfig(BaseConfig);
  const applied = await migrateSchema(calendarSchema(config.DATABASE_URL));
  process.stdout.write(`${JSON.stringify({ schema: 'calendar', applied })}\n`);
});
