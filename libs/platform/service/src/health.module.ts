import { DynamicModule, Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { Readiness } from './readiness';

@Global()
@Module({ controllers: [HealthController], providers: [Readiness], exports: [Readiness] })
export class HealthModule {
  /** Serves probes for checks registered in another application of the same process (the gateway's API). */
  static sharing(readiness: Readiness): DynamicModule {
    return { module: HealthModule, providers: [{ provide: Readiness, useValue: readiness }], exports: [Readiness] };
  }
}
