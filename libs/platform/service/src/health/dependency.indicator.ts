import { OnModuleInit } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { HealthChecks } from './health-checks';

/** A probe that does not answer in this time counts as down: a hung dependency must not hang the probe. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * One dependency of the process (a database, a broker, a consumer) as a Terminus indicator: `probe`
 * throws when the dependency does not answer. It adds itself to the process's readiness checks.
 */
export abstract class DependencyIndicator implements OnModuleInit {
  protected abstract readonly key: string;

  protected abstract probe(): Promise<unknown>;

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly checks: HealthChecks,
  ) {}

  onModuleInit(): void {
    this.checks.add(() => this.isHealthy());
  }

  async isHealthy(): Promise<HealthIndicatorResult> {
    const session = this.indicators.check(this.key);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.probe(),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), PROBE_TIMEOUT_MS))),
      ]);
      return session.up();
    } catch (error) {
      return session.down({ message: (error as Error).message });
    } finally {
      clearTimeout(timer);
    }
  }
}
