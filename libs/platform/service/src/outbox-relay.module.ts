import { DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { createLogger } from '@platform/logging';
import { OutboxRelay, outboxWakeSubject } from '@platform/messaging';
import { Database, Outbox } from '@platform/persistence';
import type { NatsConnection, Subscription } from 'nats';
import { BackgroundLoop } from './background-jobs';
import { HealthChecks } from './health/health-checks';
import { counter, gauge } from './metrics';
import { NATS_CONNECTION } from './nats-connection.module';

const OUTBOX_RELAY_OPTIONS = Symbol('OUTBOX_RELAY_OPTIONS');

interface RelayModuleOptions {
  schema: string;
  app: string;
  /**
   * Pause between polls when the outbox is empty and no writer announces a commit: the safety net for a
   * lost announcement, and how late an entry written by a process that does not announce (the admin tool) leaves.
   */
  idleMs?: number;
}
/**
 * The shortest time from one batch's start to the next: commits that land in it leave together, in one
 * transaction and one round of publishes, instead of one batch each.
 */
const GATHER_MS = 5;
const outboxLag = gauge('outbox_lag_seconds', 'Age of the oldest event not yet published', ['schema']);
const outboxPublished = counter('outbox_published_total', 'Events published from the outbox by this process', ['schema']);
const outboxParked = gauge('outbox_parked_events', 'Events set aside because they could not be published, waiting for `admin outbox retry`', ['schema']);
const outboxParkings = counter('outbox_parked_total', 'Events this process set aside because they could not be published', ['schema']);
/** How often the lag and the set-aside count are read from the database. */
const MEASURE_INTERVAL_MS = 5_000;

/**
 * Runs the relay on the process's background loop: a batch at once while batches come out full, else when
 * a writer announces a commit on core NATS (outboxAnnouncer) or every idleMs; after a failure, a growing
 * pause that announcements do not cut short (a batch that JetStream refuses would otherwise retry per commit).
 */
@Injectable()
class OutboxRelayRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private relay?: OutboxRelay;
  private loop?: BackgroundLoop;
  private announcements?: Subscription;
  private lagTimer?: NodeJS.Timeout;
  private readonly outbox: Outbox;
  /** Events set aside at the last measure; readiness shows it (the relay still works: it stays ready). */
  private parked = 0;

  constructor(
    private readonly database: Database,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(OUTBOX_RELAY_OPTIONS) private readonly options: RelayModuleOptions,
    indicators: HealthIndicatorService,
    checks: HealthChecks,
  ) {
    this.outbox = new Outbox(options.schema);
    checks.add(async () => indicators.check('outbox').up({ schema: options.schema, parked: this.parked }));
  }

  onApplicationBootstrap(): void {
    const { schema, app, idleMs = 1_000 } = this.options;
    const logger = createLogger(app);
    const onParked = (count: number) => {
      outboxParkings.inc({ schema }, count);
      void this.measure();
    };
    const relay = (this.relay = new OutboxRelay(this.database, this.outbox, this.nc, logger, { onParked }));
    // A commit announced since the last pass, and whether that pass found the outbox empty.
    let announced = false;
    let idle = false;
    const pass = async () => {
      const wasAnnounced = announced;
      announced = false;
      // An empty outbox is asked about with a cheap read, not a transaction that takes nothing.
      if (idle && !wasAnnounced && !(await this.outbox.hasPending(this.database))) return false;
      const count = await relay.relayBatch();
      if (count > 0) outboxPublished.inc({ schema }, count);
      idle = count === 0;
      return count >= relay.batchSize;
    };
    const loop = (this.loop = new BackgroundLoop(logger, pass, {
      name: `outbox-relay.${schema}`,
      owner: app,
      failure: `outbox relay batch of ${schema} failed`,
      idleMs,
      backoffMs: 100,
      maxBackoffMs: 5_000,
      minGapMs: GATHER_MS,
      wakeDuringBackoff: false,
    }));
    this.announcements = this.nc.subscribe(outboxWakeSubject(schema), {
      callback: () => {
        announced = true;
        loop.wake();
      },
    });
    loop.start();
    void this.measure();
    this.lagTimer = setInterval(() => void this.measure(), MEASURE_INTERVAL_MS);
    this.lagTimer.unref();
  }

  private async measure(): Promise<void> {
    const { schema } = this.options;
    await Promise.all([
      this.relay?.lagSeconds().then((lag) => outboxLag.set({ schema }, lag)),
      this.outbox.parkedCount(this.database).then((parked) => outboxParked.set({ schema }, (this.parked = parked))),
    ]).catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.lagTimer);
    this.announcements?.unsubscribe();
    await this.loop?.stop();
  }
}

/** Runs the outbox relay of one schema inside this process. */
@Module({})
export class OutboxRelayModule {
  static forSchema(schema: string, app: string, options: { idleMs?: number } = {}): DynamicModule {
    return {
      module: OutboxRelayModule,
      providers: [{ provide: OUTBOX_RELAY_OPTIONS, useValue: { schema, app, ...options } }, OutboxRelayRunner],
    };
  }
}
