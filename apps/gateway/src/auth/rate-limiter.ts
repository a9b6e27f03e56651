import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Readiness } from '@platform/service';
import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { GatewayConfig } from '../gateway.config';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time, in seconds, when the current window ends. */
  resetAt: number;
  retryAfterSeconds: number;
}

/**
 * Fixed one-minute windows per API key, counted in Redis so every gateway replica shares them. While
 * Redis is unreachable each replica counts in memory rather than failing or hanging requests.
 */
@Injectable()
export class RateLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly limiter: RateLimiterRedis;
  readonly limit: number;

  constructor(config: GatewayConfig, private readonly readiness: Readiness) {
    this.limit = config.RATE_LIMIT_PER_MINUTE;
    this.redis = new Redis(config.REDIS_URL, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // Every request consumes a point: commands issued in the same tick leave in one write.
      enableAutoPipelining: true,
    });
    this.redis.on('error', () => undefined); // reconnects by itself; the insurance limiter covers the gap
    this.limiter = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: 'ratelimit',
      points: this.limit,
      duration: 60,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'ratelimit-local', points: this.limit, duration: 60 }),
    });
  }

  onModuleInit(): void {
    this.readiness.register('redis', async () => {
      await this.redis.ping();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
  }

  async consume(subject: string): Promise<RateLimitDecision> {
    try {
      return this.decision(await this.limiter.consume(subject), true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.decision(rejection, false);
      throw rejection;
    }
  }

  private decision(res: RateLimiterRes, allowed: boolean): RateLimitDecision {
    const msLeft = Math.max(0, res.msBeforeNext);
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, res.remainingPoints),
      resetAt: Math.ceil((Date.now() + msLeft) / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
    };
  }
}
