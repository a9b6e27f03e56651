import { DynamicModule, Module } from '@nestjs/common';
import type { RedisServiceConfig } from '@platform/config';
import Redis, { RedisOptions } from 'ioredis';
import { connectionModule } from './connection.module';

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
  // The delivery slots: the attempts that end or start in one tick (hundreds in flight) ask in one write.
  'slot-leases': { maxRetriesPerRequest: 3, enableAutoPipelining: true },
  // The delivery worker: no auto-pipelining. ioredis copies every script a client defines onto each pipeline
  // it builds, and BullMQ defines 64 on this one: a pipeline cost 44 us here against 4 for a bare client, once
  // per tick with a command, which at a steady trickle of events is once or more per delivery (bench/README.md).
  'queue-worker': { maxRetriesPerRequest: null },
} satisfies Record<string, RedisOptions>;

export type RedisProfile = keyof typeof PROFILES;

export function connectRedis(url: string, profile: RedisProfile): Redis {
  const redis = new Redis(url, PROFILES[profile]);
  // It reconnects by itself; what a lost connection means is the user's call (readiness, fallbacks, retries).
  redis.on('error', () => undefined);
  return redis;
}

/** The process's Redis client (`REDIS_CLIENT`) with its readiness check; disconnected at shutdown. */
@Module({})
export class RedisModule {
  static forRoot(profile: RedisProfile): DynamicModule {
    return connectionModule(RedisModule, {
      token: REDIS_CLIENT,
      key: 'redis',
      open: (config: RedisServiceConfig) => connectRedis(config.REDIS_URL, profile),
      probe: (redis: Redis) => redis.ping(),
      close: (redis: Redis) => redis.disconnect(),
    });
  }
}
