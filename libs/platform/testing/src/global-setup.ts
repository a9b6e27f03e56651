// Loaded by jest before the e2e project; uses the compiled launcher so path aliases resolve as in production.
import { resolve } from 'node:path';

export default async function globalSetup(): Promise<void> {
  // The e2e runner (dist/scripts/e2e.js) started a stack for several jest runs and named its state file.
  if (process.env.TEST_STACK_STATE) return;
  const root = resolve(__dirname, '../../../..');
  const { startE2eStack } = require(resolve(root, 'dist/libs/platform/testing/src/e2e-stack.js'));
  const stack = await startE2eStack();
  process.env.TEST_STACK_STATE = stack.stateFile;
  (globalThis as { __testStack?: { stop(): Promise<void> } }).__testStack = stack;
}
