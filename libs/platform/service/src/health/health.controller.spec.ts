import { ServiceUnavailableException } from '@nestjs/common';
import type { HealthCheckService } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { HealthChecks } from './health-checks';

describe('readiness', () => {
  const healthy = { status: 'ok', info: {}, error: {}, details: {} };
  const terminus = { check: jest.fn(async () => healthy) } as unknown as HealthCheckService;

  const statusOf = async (controller: HealthController) => {
    try {
      await controller.ready();
      return 'ready';
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceUnavailableException);
      return ((error as ServiceUnavailableException).getResponse() as { status: string }).status;
    }
  };

  it('is not ready before every server listens, ready while serving, and not ready again from SIGTERM on', async () => {
    const checks = new HealthChecks();
    const controller = new HealthController(terminus, checks);
    expect(await statusOf(controller)).toBe('starting');
    checks.markServing();
    expect(await statusOf(controller)).toBe('ready');
    checks.markShuttingDown();
    expect(await statusOf(controller)).toBe('shutting_down');
    checks.markServing();
    expect(await statusOf(controller)).toBe('shutting_down');
  });
});
