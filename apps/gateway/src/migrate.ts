import { IDENTITY_MIGRATIONS, identitySchema } from '@identity';
import { BaseConfig, loadConfig } from '@platform/config';
import { migrateSchema } from '@platform/persistence';
import { runMain } from '@platform/service';
import { IdempotencyKeys1764100000000 } from './migrations/1764100000000-idempotency-keys';

/** Brings the gateway's schema (organizations, keys, members, outbox, idempotency keys) up to date, then exits. */
runMain('gateway-migrate', async () => {
  const config = loadConfig(BaseConfig);
  const migrations = [...IDENTITY_MIGRATIONS, IdempotencyKeys1764100000000];
  const applied = await migrateSchema({ ...identitySchema(config.DATABASE_URL), migrations });
  process.stdout.write(`${JSON.stringify({ schema: 'gateway', applied })}\n`);
});
