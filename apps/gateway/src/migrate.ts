import { identitySchema } from '@identity';
import { BaseConfig, loadConfig } from '@platform/config';
import { migrateSchema } from '@platform/persistence';
import { runMain } from '@platform/service';

/** Brings the gateway's schema (organizations, keys, members, outbox, idempotency keys) up to date, then exits. */
runMain('gateway-migrate', async () => {
  const config = loadConfig(BaseConfig);
  const applied = await migrateSchema(identitySchema(config.DATABASE_URL));
  process.stdout.write(`${JSON.stringify({ schema: 'gateway', applied })}\n`);
});
