import { DynamicModule, Module } from '@nestjs/common';
import type { ServiceConfig } from '@platform/config';
import { connectNats, ensureEventsStream } from '@platform/messaging';
import type { NatsConnection } from 'nats';
import { connectionModule } from './connection.module';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

/**
 * One NATS connection per process for JetStream and core publishes; drained at shutdown. It makes sure of
 * the EVENTS stream at start-up, unless the process only uses core NATS (`eventsStream: false`).
 */
@Module({})
export class NatsConnectionModule {
  static forRoot(name: string, { eventsStream = true }: { eventsStream?: boolean } = {}): DynamicModule {
    return connectionModule(NatsConnectionModule, {
      token: NATS_CONNECTION,
      key: 'nats',
      open: async (config: ServiceConfig) => {
        const nc = await connectNats(config.NATS_URL, name);
        if (eventsStream) await ensureEventsStream(nc, config.JETSTREAM_REPLICAS);
        return nc;
      },
      probe: async (nc: NatsConnection) => {
        if (nc.isClosed()) throw new Error('connection closed');
        await nc.flush();
      },
      close: async (nc: NatsConnection) => {
        if (!nc.isClosed()) await nc.drain().catch(() => undefined);
      },
    });
  }
}
