import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ServiceConfig } from '@platform/config';
import { connectNats, ensureEventsStream } from '@platform/messaging';
import type { NatsConnection } from 'nats';
import { Readiness } from './readiness';
import { SERVICE_CONFIG } from './service-core.module';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

@Injectable()
class NatsConnectionLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly readiness: Readiness,
  ) {}

  onModuleInit(): void {
    this.readiness.register('nats', async () => {
      if (this.nc.isClosed()) throw new Error('connection closed');
      await this.nc.flush();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => undefined);
  }
}

/** One NATS connection per process for JetStream and core publishes; drained at shutdown. */
@Global()
@Module({})
export class NatsConnectionModule {
  static forRoot(name: string): DynamicModule {
    return {
      module: NatsConnectionModule,
      providers: [
        {
          provide: NATS_CONNECTION,
          inject: [SERVICE_CONFIG],
          useFactory: async (config: ServiceConfig) => {
            const nc = await connectNats(config.NATS_URL, name);
            await ensureEventsStream(nc, config.EVENTS_STREAM_REPLICAS);
            return nc;
          },
        },
        NatsConnectionLifecycle,
      ],
      exports: [NATS_CONNECTION],
    };
  }
}
