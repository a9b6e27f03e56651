import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Where the global setup leaves what test files need to reach the stack it started. */
export const REPO_ROOT = resolve(__dirname, '../../../..').replace(/\/dist$/, '');
export const STACK_STATE_FILE = resolve(REPO_ROOT, 'dist/test-stack/state.json');
export const STACK_LOG_FILE = resolve(REPO_ROOT, 'dist/test-stack/stack.log');

export interface StackState {
  gatewayUrl: string;
  env: Record<string, string>;
  healthPorts: Record<string, number>;
}

let cached: StackState | undefined;

export function stackState(): StackState {
  cached ??= JSON.parse(readFileSync(process.env.TEST_STACK_STATE ?? STACK_STATE_FILE, 'utf8')) as StackState;
  return cached;
}

export function gatewayUrl(): string {
  return stackState().gatewayUrl;
}

/** The environment every process of the test stack runs with. */
export function stackEnv(): Record<string, string> {
  return { ...stackState().env };
}

export function testDatabaseUrl(): string {
  return stackState().env.DATABASE_URL;
}
