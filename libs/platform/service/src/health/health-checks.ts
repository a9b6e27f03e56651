import { Injectable } from '@nestjs/common';
import type { HealthIndicatorFunction } from '@nestjs/terminus';

/**
 * The dependencies this process needs before it takes work, as Terminus indicators. Each dependency's
 * module adds its own; the readiness probe runs them all.
 */
@Injectable()
export class HealthChecks {
  private readonly indicators: HealthIndicatorFunction[] = [];
  private phase: 'starting' | 'serving' | 'shutting_down' = 'starting';

  add(indicator: HealthIndicatorFunction): void {
    this.indicators.push(indicator);
  }

  /**
   * Once every server of the process listens (the API port too, not only the health port), it may report
   * ready: a load balancer that sees it ready sooner sends requests to a port that refuses them.
   */
  markServing(): void {
    if (this.phase === 'starting') this.phase = 'serving';
  }

  /** From SIGTERM on the process reports not-ready, so the load balancer stops sending work. */
  markShuttingDown(): void {
    this.phase = 'shutting_down';
  }

  /** Why the process is not ready whatever its dependencies say, if it is not serving. */
  get notServing(): 'starting' | 'shutting_down' | undefined {
    return this.phase === 'serving' ? undefined : this.phase;
  }

  all(): HealthIndicatorFunction[] {
    return this.indicators;
  }
}
