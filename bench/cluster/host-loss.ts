import { DEFAULT_HOST_LOSS, HostLossReport, runHostLossScenario, startClusterStack } from '@platform/testing/cluster';
import { log } from '../lib/bench-http';

/**
 * Issue 33's scenario as a bench figure: three hosts in network namespaces (root only), one lost whole
 * under load and brought back, then a rolling deploy. BENCH_CLUSTER_RATE sets the creates per second.
 */
export async function measureHostLoss(): Promise<Omit<HostLossReport, 'natsChecks'>> {
  log('cluster: starting three hosts ...');
  const stack = await startClusterStack();
  try {
    const settings = { ...DEFAULT_HOST_LOSS, ratePerSecond: Number(process.env.BENCH_CLUSTER_RATE ?? DEFAULT_HOST_LOSS.ratePerSecond) };
    const { natsChecks: _checks, ...report } = await runHostLossScenario(stack, settings, (line) => log(`cluster: ${line}`));
    log(
      `cluster: ${report.sent} creates, ${report.failedOnLostHost} failed on the lost host, ${report.violations.length} elsewhere; ` +
        `p99 ${report.baselineP99Ms} ms before the loss, back within ${report.recoveryMs / 1000} s; rolling deploy ${report.rollingDeployMs / 1000} s ` +
        `(p99 ${report.rollingDeployP99Ms} ms); every event at every receiver ${report.secondsToDeliverAll} s after the load stopped`,
    );
    return report;
  } finally {
    await stack.destroy();
  }
}
