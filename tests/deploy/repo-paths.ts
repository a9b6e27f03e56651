import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '../..');
export const DOCKERFILE = 'deploy/docker/Dockerfile';

export const repoPath = (path: string) => resolve(REPO_ROOT, path);

/** Compiled entry files come from `npm run build` (which `npm test` runs first). */
export function assertBuilt(entry: string): void {
  if (!existsSync(repoPath('dist'))) throw new Error('dist/ is missing: run `npm run build` before these tests');
  if (!existsSync(repoPath(entry))) throw new Error(`${entry} is not produced by the build (no such file after npm run build)`);
}

/** The port a long-running process answers HTTP on besides its health port (only the gateway has one). */
export const HTTP_PORTS: Readonly<Record<string, number>> = { gateway: 3000 };

/** Terminate within the grace period: what the apps default to, and the margin we keep below it. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000;
export const GRACE_MARGIN_MS = 5_000;
