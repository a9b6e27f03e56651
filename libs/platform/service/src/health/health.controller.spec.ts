import { ServiceUnavailableException } from '@nestjs/common';
import type { HealthCheckService } from '@nestjs/terminus';
import { PeriodicJob } from '../background-jobs';
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

describe('the background work answer', () => {
  it('lists what the process runs on its own while it runs, with its owner, schedule and health', async () => {
    const controller = new HealthController({} as HealthCheckService, new HealthChecks());
    const job = new PeriodicJob(async () => undefined, 60_000, { runAtStart: true, name: 'answer-job', owner: 'tests' });
    job.start();
    await new Promise((r) => setImmediate(r));
    expect(controller.background().work.find((work) => work.name === 'answer-job')).toEqual({
      name: 'answer-job',
      owner: 'tests',
      schedule: 'every 60000 ms',
      running: true,
      failures_in_a_row: 0,
      last_success_at: expect.any(String),
      last_failure: null,
    });
    await job.stop();
    expect(controller.background().work.find((work) => work.name === 'answer-job')).toBeUndefined();
  });
});
