import type { ProcessName } from '@platform/runner';
import { audit, describeReport, expectNothingLost, LoadScenario, sleep, startScenario } from './load-under-faults';

/** The order the issue names: the tables app, the relay, the dispatcher's consumer, the worker, the gateway. */
const VICTIMS: ProcessName[] = ['tables', 'tables-relay', 'webhooks', 'webhooks-worker', 'gateway'];

describe('SIGKILL of each app under a steady write load with a webhook subscribed', () => {
  let scenario: LoadScenario;

  beforeAll(async () => {
    scenario = await startScenario('crash');
  }, 180_000);

  afterAll(async () => {
    await scenario?.receiver.close();
    await scenario?.stack.stop();
  }, 60_000);

  it('loses no acknowledged row, publishes exactly one event per committed row and delivers each at least once', async () => {
    const { stack, writer, faults } = scenario;
    writer.start();
    await sleep(3_000);
    for (const victim of VICTIMS) {
      await faults.inject(`SIGKILL ${victim}`, async () => {
        await stack.kill(victim);
        // Left dead for a moment, so that requests in flight meet the hole.
        await sleep(1_000);
        await stack.restart(victim);
      });
      await sleep(3_000);
    }
    // The consumer's unacked messages come back after JetStream's ack wait (60 s) when it was killed mid-batch.
    const report = await audit(scenario, 90_000);
    process.stdout.write(`${describeReport('crash', report, faults)}\n`);
    expectNothingLost(report);
  }, 300_000);
});
