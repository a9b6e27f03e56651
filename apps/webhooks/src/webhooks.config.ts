import { IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { commaList, IsDurationList, IsIntBetween, parseDurationList, RedisServiceConfig } from '@platform/config';
import { IsSecretEncryptionKey } from './secrets/secret-encryption-key';

/** What both processes of the app read: the API with the event consumer, and the delivery worker. */
export class WebhooksConfig extends RedisServiceConfig {
  override HEALTH_PORT = 7103;

  /** 32 bytes, base64 or hex; encrypts webhook secrets at rest. Required in production. */
  @IsSecretEncryptionKey()
  SECRET_ENCRYPTION_KEY = '';

  /**
   * Lets webhooks target loopback and private networks. Unset, it follows NODE_ENV: allowed outside
   * production (a developer's receiver runs on localhost), refused in production.
   */
  @IsIn(['', 'true', 'false'])
  WEBHOOK_ALLOW_PRIVATE_TARGETS = '';

  /** DNS servers (`ip:port`, comma-separated) to resolve webhook hosts with; empty means the system resolver. */
  @IsOptional()
  @Matches(/^$|^[^,\s]+(,[^,\s]+)*$/, { message: 'must be a comma list of ip:port' })
  WEBHOOK_DNS_SERVERS = '';

  /**
   * How long a webhook host's addresses are kept before it is resolved again (at most its records' TTL when
   * WEBHOOK_DNS_SERVERS answer); 0 resolves it for every attempt.
   */
  @IsIntBetween(0, 3_600_000)
  WEBHOOK_DNS_CACHE_MS = 30_000;

  /** The BullMQ queue deliveries go through; BullMQ ids may not contain ':'. */
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,100}$/, { message: 'must be 1..100 letters, digits, _ or -' })
  WEBHOOK_QUEUE = 'webhook-deliveries';

  /** Per-request deadline of a delivery: connect, headers and body together. */
  @IsIntBetween(100, 300_000)
  WEBHOOK_TIMEOUT_MS = 30_000;

  /** The delays before retries 1..5, after the previous failure. */
  @IsDurationList()
  WEBHOOK_RETRY_DELAYS = '1m,5m,30m,2h,24h';

  /**
   * Attempts in flight at once for one webhook, across every worker process: a slow receiver delays only
   * itself. The fan-out reads it too: a batch's deliveries for one webhook get a job each up to this many.
   */
  @IsIntBetween(1, 1_000)
  WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK = 10;

  get allowPrivateTargets(): boolean {
    return this.WEBHOOK_ALLOW_PRIVATE_TARGETS === '' ? !this.isProduction : this.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true';
  }

  /** The delays before retries 1..5, in milliseconds. */
  get retryDelays(): number[] {
    return parseDurationList(this.WEBHOOK_RETRY_DELAYS) as number[];
  }

  get dnsServers(): string[] {
    return commaList(this.WEBHOOK_DNS_SERVERS);
  }
}

/** The API process: request-reply handlers, plus the JetStream consumer unless turned off. */
export class WebhooksApiConfig extends WebhooksConfig {
  /** Runs the durable JetStream consumer in this process; turn off to run API replicas without it. */
  @IsBoolean()
  WEBHOOK_CONSUMER_ENABLED = true;

  /** The durable consumer's name on the EVENTS stream; every consumer process of one system shares it. */
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,100}$/, { message: 'must be 1..100 letters, digits, _ or -' })
  WEBHOOK_CONSUMER_NAME = 'webhook-dispatcher';

  /** How long the test endpoint waits for the receiver; the gateway waits 35 s for this route. */
  @IsIntBetween(100, 300_000)
  WEBHOOK_TEST_TIMEOUT_MS = 30_000;

  /** How long events and delivery records are kept (for redeliver and recover); older ones are pruned hourly. */
  @IsIntBetween(1, 3_650)
  EVENT_RETENTION_DAYS = 30;

  /** How often delivery series owed an attempt for longer than this are checked for a job in Redis, and queued again without one. */
  @IsIntBetween(200, 3_600_000)
  WEBHOOK_RECONCILE_INTERVAL_MS = 60_000;

  /**
   * How long the fan-out keeps an organization's active webhooks before reading them again. A change of
   * them is announced to every replica at once; this bounds what a lost announcement costs. 0 reads them
   * for every batch of events.
   */
  @IsIntBetween(0, 600_000)
  WEBHOOK_SUBSCRIPTIONS_TTL_MS = 5_000;
}

/** The delivery worker process. */
export class WebhooksWorkerConfig extends WebhooksConfig {
  override HEALTH_PORT = 7104;

  /** Deliveries in flight at once in one worker process. */
  @IsIntBetween(1, 5_000)
  WEBHOOK_WORKER_CONCURRENCY = 200;

  /**
   * Worker slots one organization's deliveries hold at once in one worker process, in flight or waiting
   * for their webhook's slot: one organization's many slow webhooks cannot take the slots the others need.
   */
  @IsIntBetween(1, 5_000)
  WEBHOOK_MAX_IN_FLIGHT_PER_ORG = 50;

  /**
   * A webhook whose attempts held their slot at most this long on average (or that has had none yet) is
   * quick: its deliveries beyond the room above wait in the worker for a slot handed over instead of
   * being parked, as long as its attempts keep ending.
   */
  @IsIntBetween(1, 60_000)
  WEBHOOK_QUICK_RECEIVER_MS = 100;

  /** How long without an attempt of a quick webhook ending before the deliveries waiting beyond the room are parked. */
  @IsIntBetween(100, 600_000)
  WEBHOOK_STALL_MS = 1_000;

  /** How long a job stays locked to a worker without renewal; a killed worker's jobs come back after it. */
  @IsIntBetween(500, 600_000)
  WEBHOOK_JOB_LOCK_MS = 30_000;

  /** How often the worker looks for jobs whose worker died. */
  @IsIntBetween(200, 600_000)
  WEBHOOK_STALLED_CHECK_MS = 30_000;
}
