import { Controller, Get, Header, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { PROCESS_ID_HEADER } from '@platform/runner';
import { backgroundWork } from '../background-work';
import { metricsRegistry } from '../metrics';
import { HealthChecks } from './health-checks';

/**
 * Kubernetes probes and the Prometheus scrape, served on the health port. The probes name the process that
 * answers them, so a supervisor can tell its own child from another program that holds the same port.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly checks: HealthChecks,
  ) {}

  @Get('health/live')
  @Header(PROCESS_ID_HEADER, String(process.pid))
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('health/ready')
  @Header(PROCESS_ID_HEADER, String(process.pid))
  @HealthCheck()
  ready() {
    const notServing = this.checks.notServing;
    if (notServing) throw new ServiceUnavailableException({ status: notServing });
    return this.health.check(this.checks.all());
  }

  /** What this process does on its own (loops, periodic jobs, relays, queue consumers) and how each fares. */
  @Get('health/background')
  @Header(PROCESS_ID_HEADER, String(process.pid))
  background() {
    return { work: backgroundWork.list() };
  }

  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics() {
    return metricsRegistry.metrics();
  }
}
