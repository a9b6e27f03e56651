import { PROCESSES } from '@platform/runner';
import { audit, describeReport, expectNothingLost, LoadScenario, sleep, startScenario } from './load-under-faults';

const OUTAGE_MS = 3_000;
const RECOVERY_TIMEOUT_MS = 60_000;

describe('Redis, NATS and PostgreSQL restarted under a steady write load', () => {
  let scenario: LoadScenario;

  beforeAll(async () => {
    scenario = await startScenario('dependencies');
  }, 180_000);

  afterAll(async () => {
    await scenario?.receiver.close();
    await scenario?.stack.stop();
  }, 60_000);

  /** Waits until every app answers ready again by itself; answers the ones that did not, with their report. */
  async function unrecovered(): Promise<Record<string, string>> {
    const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
    for (;;) {
      const reports = await Promise.all(PROCESSES.map(async ({ name }) => [name, await scenario.stack.readiness(name)] as const));
      const down = reports.filter(([, readiness]) => !readiness.ready);
      if (down.length === 0 || Date.now() > deadline) return Object.fromEntries(down.map(([name, r]) => [name, `${r.status} ${r.body}`]));
      await sleep(250);
    }
  }

  it('every app reconnects by itself, requests fail cleanly during the outage, nothing committed is lost', async () => {
    const { stack, writer, faults } = scenario;
    const outages = [
      { label: 'restart Redis', stop: () => stack.redis.stop(), start: () => stack.redis.start() },
      { label: 'restart NATS', stop: () => stack.nats.stop(), start: () => stack.nats.start() },
      { label: 'restart PostgreSQL (immediate stop)', stop: () => stack.postgres.stop('immediate'), start: () => stack.postgres.start() },
    ];
    const notRecovered: Record<string, Record<string, string>> = {};
    writer.start();
    await sleep(3_000);
    for (const outage of outages) {
      await faults.inject(outage.label, async () => {
        await outage.stop();
        await sleep(OUTAGE_MS);
        await outage.start();
        const down = await unrecovered();
        if (Object.keys(down).length > 0) notRecovered[outage.label] = down;
      });
      await sleep(3_000);
    }
    const report = await audit(scenario, 90_000);
    process.stdout.write(`${describeReport('dependencies', report, faults)}\nnot recovered: ${JSON.stringify(notRecovered, null, 2)}\n`);
    expect(notRecovered).toEqual({});
    expectNothingLost(report);
  }, 400_000);
});
