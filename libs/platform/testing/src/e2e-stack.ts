import { launchTestStack } from './stack-launcher';
import { startTestDnsServer } from './test-dns';

export interface E2eStack {
  /** The state file that test files read (`TEST_STACK_STATE`). */
  stateFile: string;
  stop(): Promise<void>;
}

/**
 * The stack every e2e spec runs against, with the loopback DNS server the domains service resolves
 * through (tests set its answers through Redis). Started by jest's global setup, or once by the e2e
 * runner for several jest runs.
 */
export async function startE2eStack(): Promise<E2eStack> {
  const dns = await startTestDnsServer();
  process.env.DNS_SERVERS = dns.servers;
  const stack = await launchTestStack().catch(async (error: unknown) => {
    await dns.close();
    throw error;
  });
  return {
    stateFile: stack.stateFile,
    stop: async () => {
      await stack.stop();
      await dns.close();
    },
  };
}
