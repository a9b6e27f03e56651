import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { IDENTITY_CHANGED_SUBJECT, IdentityChange } from '@contracts';
import { API_KEY_PATTERN, AuthenticatedKey, hashApiKey, IdentityStore } from '@identity';
import { NATS_CONNECTION } from '@platform/service';
import { LRUCache } from 'lru-cache';
import type { NatsConnection } from 'nats';
import { GatewayConfig } from '../gateway.config';

type Cached = AuthenticatedKey | 'unknown';

/**
 * Resolves a bearer key to its organization and scopes. Lookups by hash are cached for a short time;
 * the admin tool's revocations and plan changes evict entries at once over NATS. A key is looked up once
 * at a time: the requests that find its entry missing or expired wait for the lookup already on its way.
 * Each lookup writes the key's `last_used_at`, so without that every request in flight when a busy key's
 * entry expired (a few dozen at a few hundred a second) wrote the same row, one after another on its lock.
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleInit {
  private readonly cache: LRUCache<string, Cached, string>;

  constructor(
    private readonly identity: IdentityStore,
    config: GatewayConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {
    this.cache = new LRUCache<string, Cached, string>({
      max: 50_000,
      ttl: Math.max(1, config.API_KEY_CACHE_TTL_MS),
      // The key itself comes as the context: the cache is keyed by its hash.
      fetchMethod: async (_hash, _stale, { context: key }) => (await this.identity.authenticate(key)) ?? 'unknown',
    });
  }

  onModuleInit(): void {
    const subscription = this.nc.subscribe(IDENTITY_CHANGED_SUBJECT);
    void (async () => {
      for await (const message of subscription) {
        try {
          this.forget(message.json<IdentityChange>());
        } catch {
          this.cache.clear();
        }
      }
    })();
  }

  async authenticate(key: string): Promise<AuthenticatedKey | undefined> {
    if (!API_KEY_PATTERN.test(key)) return undefined;
    const cacheKey = hashApiKey(key).toString('base64');
    const found = await this.cache.fetch(cacheKey, { context: key });
    return found === 'unknown' ? undefined : found;
  }

  private forget(change: IdentityChange): void {
    for (const [cacheKey, entry] of this.cache.entries()) {
      if (entry === 'unknown') continue;
      if ((change.kind === 'key' && entry.keyId === change.keyId) || (change.kind === 'org' && entry.org.id === change.orgId)) {
        this.cache.delete(cacheKey);
      }
    }
  }
}
