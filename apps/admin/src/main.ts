import 'reflect-metadata';
import { IDENTITY_CHANGED_SUBJECT, IdentityChange } from '@contracts';
import { IdentityStore, identitySchema } from '@identity';
import { loadConfig, ConfigError } from '@platform/config';
import { AppError } from '@platform/errors';
import { natsClientOptions } from '@platform/messaging';
import { dataSourceOptions, migrateSchema } from '@platform/persistence';
import { connect, JSONCodec } from 'nats';
import { DataSource } from 'typeorm';
import { AdminConfig } from './admin.config';
import { parse } from './cli-args';
import { COMMANDS, USAGE } from './commands/commands';

async function announceTo(natsUrl: string, change: IdentityChange): Promise<void> {
  // Best effort: gateways also forget cached entries after API_KEY_CACHE_TTL_MS.
  const nc = await connect({ ...natsClientOptions(natsUrl, 'admin'), waitOnFirstConnect: false, maxReconnectAttempts: 0, timeout: 2_000 }).catch(() => undefined);
  if (!nc) return;
  nc.publish(IDENTITY_CHANGED_SUBJECT, JSONCodec().encode(change));
  await nc.drain().catch(() => undefined);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  const name = positionals.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command || positionals.length > 2) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(AdminConfig);
  const schema = identitySchema(config.DATABASE_URL, 2);
  await migrateSchema(schema);
  const db = await new DataSource(dataSourceOptions({ ...schema, applicationName: 'admin' })).initialize();
  try {
    const result = await command({
      store: new IdentityStore(db),
      values,
      announce: (change) => announceTo(config.NATS_URL, change),
      isProduction: config.isProduction,
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const body =
      error instanceof AppError ? error.toBody() : error instanceof ConfigError ? { code: 'CONFIG_ERROR', message: error.message } : AppError.internal(String((error as Error)?.message ?? error)).toBody();
    process.stderr.write(`${JSON.stringify({ error: body })}\n`);
    process.exit(1);
  },
);
