import { Controller, Get, Header, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { metricsRegistry } from '../metrics';
import { HealthChecks } from './health-checks';

/** Kubernetes probes and the Prometheus scrape, served on the health port. */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly checks: HealthChecks,
  ) {}

  @Get('health/live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('health/ready')
  @HealthCheck()
  ready() {
    if (this.checks.isShuttingDown) throw new ServiceUnavailableException({ status: 'shutting_down' });
    return this.health.check(this.checks.all());
  }

  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics() {
    return metricsRegistry.metrics();
  }
}
