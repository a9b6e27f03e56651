import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ClusterStack, DEFAULT_HOST_LOSS, HostLossReport, recoveredBound, runHostLossScenario, startClusterStack } from '@platform/testing/cluster';
import { REPO_ROOT } from '@platform/testing';

/**
 * Issue 33: three hosts in network namespaces, a three-node NATS cluster with the EVENTS stream at three
 * replicas, every process on every host; one host lost whole under load and brought back, then a
 * rolling deploy. Needs root (network namespaces); `npm run test:cluster`.
 */
describe('a cluster of three hosts', () => {
  let stack: ClusterStack;
  let report: HostLossReport;
  const log = (line: string) => process.stdout.write(`[cluster] ${line}\n`);

  beforeAll(async () => {
    stack = await startClusterStack();
    log(`three hosts up; logs in ${stack.logFile}`);
    report = await runHostLossScenario(stack, DEFAULT_HOST_LOSS, log);
    const file = resolve(REPO_ROOT, `dist/cluster/host-loss-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2));
    const { natsChecks: _checks, p99BySecondAfterLoss, violations, ...figures } = report;
    log(`${JSON.stringify({ ...figures, violations: violations.length, p99BySecondAfterLoss })}; full report ${file}`);
  }, 420_000);

  afterAll(async () => {
    await stack?.destroy();
  }, 60_000);

  it('delivers every committed row to every receiver, no row twice under two webhook-ids', () => {
    expect(report.committedRows).toBeGreaterThan(0);
    expect(report.missing).toEqual({ 8081: [], 8082: [] });
    expect(report.duplicatesAfterDedupe).toEqual({ 8081: [], 8082: [] });
  });

  it('fails no request to a surviving gateway, and none at all during the rolling deploy', () => {
    expect(report.violations).toEqual([]);
    expect(report.acked + report.failedOnLostHost).toBe(report.sent);
  });

  it('loses no acknowledged row', () => {
    expect(report.ackedButLost).toEqual([]);
  });

  it('has creates back at their p99 within 15 s of the loss', () => {
    expect(report.baselineP99Ms).toBeGreaterThan(0);
    log(`p99 bound ${recoveredBound(report.baselineP99Ms)} ms; per second after the loss: ${report.p99BySecondAfterLoss.join(' ')}`);
    expect(report.recoveryMs).toBeLessThanOrEqual(15_000);
  });

  it('keeps the stream and the durable consumer working with one NATS node down', () => {
    expect(report.natsChecks.length).toBeGreaterThan(5);
    // The first seconds may go to electing a new leader when the lost node held it: 2.2-10.1 s measured
    // over eight runs (NATS's own election timing; checks every second with a 2 s timeout).
    expect(report.jetStreamBackMs).toBeLessThanOrEqual(15_000);
    expect(report.natsFailuresAfterElection).toEqual([]);
    expect(report.natsChecks.filter((check) => !check.error).every((check) => check.streamLeader && check.streamLeader !== report.lostHost)).toBe(true);
    expect(report.consumerAdvancedWhileDown).toBe(true);
    expect(report.deliveriesWhileDown).toBeGreaterThan(0);
  });
});
