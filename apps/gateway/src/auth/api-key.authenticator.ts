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
 * the admin tool's revocations and plan changes evict entries at once over NATS.
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleInit {
  private readonly cache: LRUCache<string, Cached>;

  constructor(
    private readonly identity: IdentityStore,
    config: GatewayConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {
    this.cache = new LRUCache<string, Cached>({ max: 50_000, ttl: Math.max(1, config.API_KEY_CACHE_TTL_MS) });
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
    const cached = this.cache.get(cacheKey);
    if (cached !== undefined) return cached === 'unknown' ? undefined : cached;
    const found = await this.identity.authenticate(key);
    this.cache.set(cacheKey, found ?? 'unknown');
    return found;
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
