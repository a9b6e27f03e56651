import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { ServiceConfig } from '@platform/config';
import { connectNats, ensureEventsStream } from '@platform/messaging';
import type { NatsConnection } from 'nats';
import { DependencyIndicator } from './health/dependency.indicator';
import { HealthChecks } from './health/health-checks';
import { SERVICE_CONFIG } from './service-config';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

@Injectable()
export class NatsHealthIndicator extends DependencyIndicator implements OnApplicationShutdown {
  protected readonly key = 'nats';

  constructor(
    indicators: HealthIndicatorService,
    checks: HealthChecks,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {
    super(indicators, checks);
  }

  protected async probe(): Promise<void> {
    if (this.nc.isClosed()) throw new Error('connection closed');
    await this.nc.flush();
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
        NatsHealthIndicator,
      ],
      exports: [NATS_CONNECTION],
    };
  }
}
