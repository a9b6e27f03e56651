import { DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { createLogger } from '@platform/logging';
import { OutboxRelay } from '@platform/messaging';
import { Database, Outbox } from '@platform/persistence';
import type { NatsConnection } from 'nats';
import { HealthChecks } from './health/health-checks';
import { counter, gauge } from './metrics';
import { NATS_CONNECTION } from './nats-connection.module';

const OUTBOX_RELAY_OPTIONS = Symbol('OUTBOX_RELAY_OPTIONS');

interface RelayModuleOptions {
  schema: string;
  app: string;
  /** Pause between polls of an empty outbox when no commit is announced (see OutboxRelayOptions). */
  idleMs?: number;
}
const outboxLag = gauge('outbox_lag_seconds', 'Age of the oldest event not yet published', ['schema']);
const outboxPublished = counter('outbox_published_total', 'Events published from the outbox by this process', ['schema']);
const outboxParked = gauge('outbox_parked_events', 'Events set aside because they could not be published, waiting for `admin outbox retry`', ['schema']);
const outboxParkings = counter('outbox_parked_total', 'Events this process set aside because they could not be published', ['schema']);
/** How often the lag and the set-aside count are read from the database. */
const MEASURE_INTERVAL_MS = 5_000;

@Injectable()
class OutboxRelayRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private relay?: OutboxRelay;
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
    const { schema, app, idleMs } = this.options;
    const onPublished = (count: number) => outboxPublished.inc({ schema }, count);
    const onParked = (count: number) => {
      outboxParkings.inc({ schema }, count);
      void this.measure();
    };
    this.relay = new OutboxRelay(this.database, this.outbox, this.nc, createLogger(app), { onPublished, onParked, idleMs });
    this.relay.start();
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
    await this.relay?.stop();
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
