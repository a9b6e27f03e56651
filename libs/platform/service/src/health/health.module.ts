import { DynamicModule, Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthChecks } from './health-checks';
import { HealthController } from './health.controller';

/** A failing readiness check is the probe's answer (503 with the checks), not an error for the log. */
const terminus = TerminusModule.forRoot({ logger: false });

/** The readiness checks every dependency module adds to, and the indicator service they are built on. */
@Global()
@Module({ imports: [terminus], providers: [HealthChecks], exports: [HealthChecks, terminus] })
export class HealthChecksModule {}

/** The health port's server: probes and metrics, answering with the checks of the process's application. */
@Module({})
export class ProbesModule {
  static serving(checks: HealthChecks): DynamicModule {
    return { module: ProbesModule, imports: [terminus], controllers: [HealthController], providers: [{ provide: HealthChecks, useValue: checks }] };
  }
}
