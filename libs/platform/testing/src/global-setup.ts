// Loaded by jest before the e2e project; uses the compiled launcher so path aliases resolve as in production.
import { resolve } from 'node:path';

export default async function globalSetup(): Promise<void> {
  const root = resolve(__dirname, '../../../..');
  const { launchTestStack } = require(resolve(root, 'dist/libs/platform/testing/src/stack-launcher.js'));
  const { startTestDnsServer } = require(resolve(root, 'dist/libs/platform/testing/src/test-dns/index.js'));
  // The domains service resolves through a loopback DNS server whose answers tests set through Redis.
  const dns = await startTestDnsServer();
  process.env.DNS_SERVERS = dns.servers;
  const stack = await launchTestStack().catch(async (error: unknown) => {
    await dns.close();
    throw error;
  });
  process.env.TEST_STACK_STATE = stack.stateFile;
  const stop = async (): Promise<void> => {
    await stack.stop();
    await dns.close();
  };
  (globalThis as { __testStack?: { stop(): Promise<void> } }).__testStack = { stop };
}
