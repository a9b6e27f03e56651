import { IDENTITY_CHANGED_SUBJECT, IdentityChange } from '@contracts/vocabulary';
import { IdentityStore, identitySchema } from '@identity';
import { loadConfig } from '@platform/config';
import { Database, migrateSchema } from '@platform/persistence';
import { AdminConfig } from './admin.config';

export interface AdminSession {
  store: IdentityStore;
  /** The whole database, for commands that reach past the gateway's schema (a context's outbox). */
  db: Database;
  /** Tells running gateways to forget what they cached about a key or an organization. */
  announce: (change: IdentityChange) => Promise<void>;
  isProduction: boolean;
}

async function announceTo(natsUrl: string, change: IdentityChange): Promise<void> {
  // Best effort: gateways also forget cached entries after API_KEY_CACHE_TTL_MS. Loaded here, not above: only the
  // commands that change a key or an organization announce; a listing stays clear of NATS and the messaging library.
  const [{ connect, JSONCodec }, { natsClientOptions }] = await Promise.all([import('nats'), import('@platform/messaging')]);
  const nc = await connect({ ...natsClientOptions(natsUrl, 'admin'), waitOnFirstConnect: false, maxReconnectAttempts: 0, timeout: 2_000 }).catch(() => undefined);
  if (!nc) return;
  nc.publish(IDENTITY_CHANGED_SUBJECT, JSONCodec().encode(change));
  await nc.drain().catch(() => undefined);
}

/** Runs one command against the gateway's schema (migrated first, so a fresh database works) and closes it. */
export async function inAdminSession<T>(work: (session: AdminSession) => Promise<T>): Promise<T> {
  const config = loadConfig(AdminConfig);
  await migrateSchema(identitySchema(config.DATABASE_URL));
  const db = new Database({ url: config.DATABASE_URL, poolSize: 2, organizationShare: 1, applicationName: 'admin' });
  try {
    return await work({ store: new IdentityStore(db), db, announce: (change) => announceTo(config.NATS_URL, change), isProduction: config.isProduction });
  } finally {
    await db.close();
  }
}
