import { IsIn } from 'class-validator';
import { IsAtLeastSetting, IsAtMostSetting, IsIntBetween, IsNumberBetween, IsUrlWithScheme } from './validators';

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** What every process of the system reads. */
export class BaseConfig {
  @IsIn(NODE_ENVS)
  NODE_ENV: (typeof NODE_ENVS)[number] = 'development';

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  @IsUrlWithScheme(['postgres', 'postgresql'])
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/platform';

  @IsUrlWithScheme(['nats', 'tls'])
  NATS_URL = 'nats://127.0.0.1:4222';

  @IsIntBetween(1000, 120_000)
  SHUTDOWN_TIMEOUT_MS = 25_000;

  /** Copies of the EVENTS stream JetStream keeps when it creates it (3 on a 3-node cluster). */
  @IsIntBetween(1, 5)
  JETSTREAM_REPLICAS = 1;

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }
}

/** A service app: request-reply over NATS, health and metrics over HTTP. */
export class ServiceConfig extends BaseConfig {
  @IsIntBetween(0, 65535)
  HEALTH_PORT = 7199;

  @IsIntBetween(1, 200)
  DATABASE_POOL_SIZE = 10;

  /** Fraction of the pool one organization's requests may hold at once while other organizations are active. */
  @IsNumberBetween(0.01, 1)
  DATABASE_POOL_ORGANIZATION_SHARE = 0.2;

  /** The same while no other organization has used the pool for a second; the rest stays free for the next. */
  @IsNumberBetween(0.01, 1)
  @IsAtLeastSetting('DATABASE_POOL_ORGANIZATION_SHARE')
  DATABASE_POOL_ORGANIZATION_SHARE_ALONE = 0.5;

  /**
   * Postgres's `max_parallel_workers_per_gather` on this service's connections. 0: every statement runs
   * in its own backend, so one organization's count cannot occupy several more, and short scans do not
   * pay for starting workers (a 200,000-row count took 73-113 ms with two workers, 15-17 ms without).
   */
  @IsIntBetween(0, 16)
  DATABASE_PARALLEL_WORKERS_PER_QUERY = 0;

  /**
   * On SIGTERM a service leaves its NATS queue group, then waits at most this long for the requests it
   * already took to answer before it closes its connection (their deadline, NATS_REQUEST_TIMEOUT_MS of
   * the gateway, ends them anyway).
   */
  @IsIntBetween(0, 60_000)
  @IsAtMostSetting('SHUTDOWN_TIMEOUT_MS')
  RPC_SHUTDOWN_GRACE_MS = 10_000;
}

/** A service that also talks to Redis (the gateway's rate limit, the webhook queue). */
export class RedisServiceConfig extends ServiceConfig {
  @IsUrlWithScheme(['redis', 'rediss'])
  REDIS_URL = 'redis://127.0.0.1:6379';
}
