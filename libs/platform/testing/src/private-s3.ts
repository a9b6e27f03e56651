import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { LocalServer, startLocalServer } from './local-server';
import { REPO_ROOT } from './stack-state';

export interface PrivateS3 extends LocalServer {
  /** The S3_* settings that point the tables service at it. */
  env: Record<string, string>;
}

const BUCKET = 'attachments';
/** The CORS rule browsers need to PUT uploads straight to the bucket (the console does), as README's development storage uses it. */
const CORS_RULE = join(REPO_ROOT, 'deploy/s3rver/cors.xml');
/** s3rver checks signatures against this fixed account. */
const CREDENTIALS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

/** Whether an HTTP server answers at `url` (with anything) within half a second. */
export async function answersHttp(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(500) });
    return true;
  } catch {
    return false;
  }
}

/**
 * An S3-protocol server (s3rver) on a free loopback port with the attachments bucket made at start. It
 * keeps its objects in a temporary directory, so a stop and start (storage down, then back) loses nothing.
 * With `keepRunning`, a crash of the emulator itself is reported and it starts again on the same port.
 */
export async function startPrivateS3(options: { keepRunning?: boolean } = {}): Promise<PrivateS3> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 's3-test-'));
  const url = `http://127.0.0.1:${port}`;
  const logFile = `${dataDir}.log`;
  const server = await startLocalServer({
    name: 's3rver',
    url,
    dataDir,
    logFile,
    keepRunning: options.keepRunning,
    launch: () => {
      const output = openSync(logFile, 'a');
      try {
        const args = ['-d', dataDir, '-a', '127.0.0.1', '-p', String(port), '--silent', '--configure-bucket', BUCKET, CORS_RULE];
        return spawn(process.execPath, [require.resolve('s3rver/bin/s3rver.js'), ...args], { stdio: ['ignore', 'ignore', output] });
      } finally {
        closeSync(output);
      }
    },
    answers: () => answersHttp(url),
  });
  // Assigned onto the server, not spread: `pid` is a getter that must follow a restart.
  return Object.assign(server, { env: { S3_ENDPOINT: url, S3_REGION: 'us-east-1', S3_BUCKET: BUCKET, S3_FORCE_PATH_STYLE: 'true', ...CREDENTIALS } });
}
