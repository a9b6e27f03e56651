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

/**
 * s3rver started from its module, not its command line, with its store's writes, copies and deletes of objects
 * taken one at a time. A delete removes the directories it leaves empty; a write into such a directory that made
 * it just before then fails to open its file, and nothing in s3rver 3.7 handles that error: the process ends.
 * Arguments: the module, the data directory, the address, the port, the bucket, its configuration files.
 */
const SERIALIZED_S3RVER = `
const { readFileSync } = require('node:fs');
const [module, directory, address, port, bucket, ...configs] = process.argv.slice(1);
const S3rver = require(module);
const server = new S3rver({ directory, address, port: Number(port), silent: true, configureBuckets: [{ name: bucket, configs: configs.map((file) => readFileSync(file)) }] });
let queue = Promise.resolve();
for (const name of ['putObject', 'copyObject', 'deleteObject']) {
  const original = server.store[name].bind(server.store);
  server.store[name] = (...args) => {
    const done = queue.then(() => original(...args));
    queue = done.catch(() => undefined);
    return done;
  };
}
server.run().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

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
        const args = [require.resolve('s3rver'), dataDir, '127.0.0.1', String(port), BUCKET, CORS_RULE];
        return spawn(process.execPath, ['-e', SERIALIZED_S3RVER, ...args], { stdio: ['ignore', 'ignore', output] });
      } finally {
        closeSync(output);
      }
    },
    answers: () => answersHttp(url),
  });
  // Assigned onto the server, not spread: `pid` is a getter that must follow a restart.
  return Object.assign(server, { env: { S3_ENDPOINT: url, S3_REGION: 'us-east-1', S3_BUCKET: BUCKET, S3_FORCE_PATH_STYLE: 'true', ...CREDENTIALS } });
}
