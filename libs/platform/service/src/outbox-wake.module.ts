import { DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { outboxAnnouncer } from '@platform/messaging';
import type { Outbox } from '@platform/persistence';
import type { NatsConnection } from 'nats';
import { NATS_CONNECTION } from './nats-connection.module';

const WOKEN_OUTBOX = Symbol('WOKEN_OUTBOX');

@Injectable()
class OutboxAnnouncement implements OnApplicationBootstrap {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(WOKEN_OUTBOX) private readonly outbox: Outbox,
  ) {}

  onApplicationBootstrap(): void {
    this.outbox.announceWith(outboxAnnouncer(this.nc, this.outbox.schema));
  }
}

/** Makes this process announce its commits into the outbox to the relays, so they publish at once. Needs NatsConnectionModule. */
@Module({})
export class OutboxWakeModule {
  static forOutbox(outbox: Outbox): DynamicModule {
    return { module: OutboxWakeModule, providers: [{ provide: WOKEN_OUTBOX, useValue: outbox }, OutboxAnnouncement] };
  }
}
