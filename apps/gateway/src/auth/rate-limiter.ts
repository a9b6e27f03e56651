import { Inject, Injectable } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/service';
import type Redis from 'ioredis';
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
export class RateLimiter {
  private readonly limiter: RateLimiterRedis;
  readonly limit: number;

  constructor(config: GatewayConfig, @Inject(REDIS_CLIENT) redis: Redis) {
    this.limit = config.RATE_LIMIT_PER_MINUTE;
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: 'ratelimit',
      points: this.limit,
      duration: 60,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'ratelimit-local', points: this.limit, duration: 60 }),
    });
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
