import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { RedisServiceConfig } from '@platform/config';
import Redis, { RedisOptions } from 'ioredis';
import { DependencyIndicator } from './health/dependency.indicator';
import { HealthChecks } from './health/health-checks';
import { SERVICE_CONFIG } from './service-config';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/**
 * How a client waits for Redis. On a request path it fails at once (the caller has a fallback); a
 * queue producer retries a little, then fails so the event comes back later; a queue worker blocks
 * on Redis and waits through a restart.
 */
const PROFILES = {
  // Commands issued in the same tick (every request's rate-limit point) leave in one write.
  'request-path': { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000, enableAutoPipelining: true },
  'queue-producer': { maxRetriesPerRequest: 3 },
  'queue-worker': { maxRetriesPerRequest: null },
} satisfies Record<string, RedisOptions>;

export type RedisProfile = keyof typeof PROFILES;

export function connectRedis(url: string, profile: RedisProfile): Redis {
  const redis = new Redis(url, PROFILES[profile]);
  // It reconnects by itself; what a lost connection means is the user's call (readiness, fallbacks, retries).
  redis.on('error', () => undefined);
  return redis;
}

@Injectable()
export class RedisHealthIndicator extends DependencyIndicator implements OnApplicationShutdown {
  protected readonly key = 'redis';

  constructor(
    indicators: HealthIndicatorService,
    checks: HealthChecks,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
  ) {
    super(indicators, checks);
  }

  protected probe(): Promise<string> {
    return this.redis.ping();
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}

/** The process's Redis client (`REDIS_CLIENT`) with its readiness check; disconnected at shutdown. */
@Module({})
export class RedisModule {
  static forRoot(profile: RedisProfile): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      providers: [
        { provide: REDIS_CLIENT, inject: [SERVICE_CONFIG], useFactory: (config: RedisServiceConfig) => connectRedis(config.REDIS_URL, profile) },
        RedisHealthIndicator,
      ],
      exports: [REDIS_CLIENT],
    };
  }
}
