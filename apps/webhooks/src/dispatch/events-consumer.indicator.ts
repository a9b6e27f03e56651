import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DependencyIndicator, HealthChecks } from '@platform/service';
import { EventFanOut } from './event-fan-out';

/** The API process is ready while its fan-out reads the durable JetStream consumer (when it runs one). */
@Injectable()
export class EventsConsumerHealthIndicator extends DependencyIndicator {
  protected readonly key = 'events-consumer';

  constructor(
    indicators: HealthIndicatorService,
    checks: HealthChecks,
    private readonly fanOut: EventFanOut,
  ) {
    super(indicators, checks);
  }

  protected probe(): Promise<void> {
    return this.fanOut.probe();
  }
}
