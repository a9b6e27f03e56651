import { Injectable } from '@nestjs/common';
import type { HealthIndicatorFunction } from '@nestjs/terminus';

/**
 * The dependencies this process needs before it takes work, as Terminus indicators. Each dependency's
 * module adds its own; the readiness probe runs them all.
 */
@Injectable()
export class HealthChecks {
  private readonly indicators: HealthIndicatorFunction[] = [];
  private shuttingDown = false;

  add(indicator: HealthIndicatorFunction): void {
    this.indicators.push(indicator);
  }

  /** From SIGTERM on the process reports not-ready, so the load balancer stops sending work. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  all(): HealthIndicatorFunction[] {
    return this.indicators;
  }
}
