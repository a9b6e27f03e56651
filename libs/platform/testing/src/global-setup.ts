// Loaded by jest before the e2e project; uses the compiled launcher so path aliases resolve as in production.
import { resolve } from 'node:path';

export default async function globalSetup(): Promise<void> {
  const root = resolve(__dirname, '../../../..');
  const { launchTestStack } = require(resolve(root, 'dist/libs/platform/testing/src/stack-launcher.js'));
  const stack = await launchTestStack();
  process.env.TEST_STACK_STATE = stack.stateFile;
  (globalThis as { __testStack?: { stop(): Promise<void> } }).__testStack = stack;
}
