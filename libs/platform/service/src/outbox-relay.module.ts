import { DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createLogger } from '@platform/logging';
import { OutboxRelay } from '@platform/messaging';
import { Database, Outbox } from '@platform/persistence';
import type { NatsConnection } from 'nats';
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

@Injectable()
class OutboxRelayRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private relay?: OutboxRelay;
  private lagTimer?: NodeJS.Timeout;

  constructor(
    private readonly database: Database,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(OUTBOX_RELAY_OPTIONS) private readonly options: RelayModuleOptions,
  ) {}

  onApplicationBootstrap(): void {
    const { schema, app, idleMs } = this.options;
    const onPublished = (count: number) => outboxPublished.inc({ schema }, count);
    this.relay = new OutboxRelay(this.database, new Outbox(schema), this.nc, createLogger(app), { onPublished, idleMs });
    this.relay.start();
    this.lagTimer = setInterval(() => {
      this.relay?.lagSeconds().then((lag) => outboxLag.set({ schema }, lag), () => undefined);
    }, 5_000);
    this.lagTimer.unref();
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
