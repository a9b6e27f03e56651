import { DynamicModule, Inject, Injectable, InjectionToken, OnApplicationShutdown, Type } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DependencyIndicator } from './health/dependency.indicator';
import { HealthChecks } from './health/health-checks';
import { SERVICE_CONFIG } from './service-config';

/** One connection a process holds to a dependency: how it opens, answers its readiness probe and closes. */
export interface ConnectionSpec<Config, Connection> {
  /** What the connection is injected by. */
  token: InjectionToken;
  /** Its name among the readiness checks. */
  key: string;
  open(config: Config): Connection | Promise<Connection>;
  /** Rejects when the dependency does not answer. */
  probe(connection: Connection): Promise<unknown>;
  /** At shutdown, after everything that used the connection has stopped. */
  close(connection: Connection): unknown;
}

/** A global module providing the connection, adding it to the readiness checks and closing it at shutdown. */
export function connectionModule<Config, Connection>(module: Type<unknown>, spec: ConnectionSpec<Config, Connection>): DynamicModule {
  @Injectable()
  class ConnectionIndicator extends DependencyIndicator implements OnApplicationShutdown {
    protected readonly key = spec.key;

    constructor(
      indicators: HealthIndicatorService,
      checks: HealthChecks,
      @Inject(spec.token) private readonly connection: Connection,
    ) {
      super(indicators, checks);
    }

    protected probe(): Promise<unknown> {
      return spec.probe(this.connection);
    }

    async onApplicationShutdown(): Promise<void> {
      await spec.close(this.connection);
    }
  }

  return {
    module,
    global: true,
    providers: [{ provide: spec.token, inject: [SERVICE_CONFIG], useFactory: (config: Config) => spec.open(config) }, ConnectionIndicator],
    exports: [spec.token],
  };
}
