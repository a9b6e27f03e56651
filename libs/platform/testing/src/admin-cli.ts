import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_ENTRY } from '@platform/runner';
import { REPO_ROOT, stackEnv } from './stack-state';

const run = promisify(execFile);

export interface AdminFailure {
  exitCode: number;
  stderr: string;
}

/** Runs the admin command line against the test stack's database; answers its JSON output. */
export async function admin<T = any>(...args: string[]): Promise<T> {
  return adminWith<T>({}, ...args);
}

/** The same, with some of the stack's environment replaced (another database, say). */
export async function adminWith<T = any>(overrides: Record<string, string>, ...args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [resolve(REPO_ROOT, ADMIN_ENTRY), ...args], { cwd: REPO_ROOT, env: { ...stackEnv(), ...overrides } });
  return JSON.parse(stdout) as T;
}

/** Runs an admin command that is expected to fail; answers its exit code and standard error. */
export async function adminFailure(...args: string[]): Promise<AdminFailure> {
  try {
    await run(process.execPath, [resolve(REPO_ROOT, ADMIN_ENTRY), ...args], { cwd: REPO_ROOT, env: stackEnv() });
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { exitCode: code, stderr };
  }
  throw new Error(`admin ${args.join(' ')} succeeded but was expected to fail`);
}

export interface TestOrg {
  orgId: string;
  key: string;
  keyId: string;
}

/** A fresh organization with one API key; each test file makes its own, so files never see each other's data. */
export async function createTestOrg(
  options: { name?: string; plan?: number; addons?: string[]; scopes?: string; databaseUrl?: string } = {},
): Promise<TestOrg> {
  const env: Record<string, string> = options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {};
  const org = await adminWith(env,
    'org', 'create',
    '--name', options.name ?? `Test ${Math.random().toString(36).slice(2, 8)}`,
    '--plan', String(options.plan ?? 0),
    ...(options.addons ?? []).flatMap((addon) => ['--addon', addon]),
  );
  const key = await adminWith(env, 'key', 'create', '--org', org.id, '--scopes', options.scopes ?? '*');
  return { orgId: org.id, key: key.key, keyId: key.id };
}
