import { Controller, Get, Header, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { metricsRegistry } from './metrics';
import { Readiness } from './readiness';

/** Kubernetes probes and the Prometheus scrape, served on the health port. */
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get('health/live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Get('health/ready')
  async ready(@Res() reply: FastifyReply) {
    const report = await this.readiness.report();
    await reply.code(report.ready ? 200 : 503).send({ status: report.ready ? 'ok' : 'unavailable', checks: report.checks });
  }

  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics() {
    return metricsRegistry.metrics();
  }
}
