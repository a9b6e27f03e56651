import { existsSync, rmSync } from 'node:fs';
import { eventually } from './eventually';
import { answersHttp, PrivateS3, startPrivateS3 } from './private-s3';

/** What the server's harness wrote to stderr while the spy was on, as one text. */
const reportsOf = (reported: jest.SpyInstance) => reported.mock.calls.map(([line]) => String(line)).join('');

const crashReport = (s3: PrivateS3) => `s3rver on ${s3.url} exited unasked (code null, signal SIGKILL)`;

/** Kills the emulator outright and waits until it answers on its port again, as another process. */
async function crashAndWaitForRestart(s3: PrivateS3): Promise<void> {
  const first = s3.pid!;
  process.kill(first, 'SIGKILL');
  await eventually(async () => expect([s3.pid !== undefined && s3.pid !== first, await answersHttp(s3.url)]).toEqual([true, true]), { timeoutMs: 15_000 });
}

/** Kills the emulator outright and sees it stay down a second later. */
async function crashAndSeeItStayDown(s3: PrivateS3): Promise<void> {
  process.kill(s3.pid!, 'SIGKILL');
  await eventually(() => expect(s3.pid).toBeUndefined(), { timeoutMs: 5_000 });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect([s3.pid, await answersHttp(s3.url)]).toEqual([undefined, false]);
}

describe('the private S3 server', () => {
  it('starts again on its port when it crashes, if asked to keep running, and reports the crash', async () => {
    const reported = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const s3 = await startPrivateS3({ keepRunning: true });
    try {
      await crashAndWaitForRestart(s3);
      // Destroyed as soon as it answers, while its restart may still be waiting to hear it: nothing of that restart fails later.
      await s3.destroy();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(reportsOf(reported)).toContain(crashReport(s3));
      expect(reportsOf(reported)).not.toContain('did not start');
    } finally {
      reported.mockRestore();
      await s3.destroy();
    }
    expect(await answersHttp(s3.url)).toBe(false);
    // The report names the emulator's output: it outlives the server.
    expect(existsSync(`${s3.dataDir}.log`)).toBe(true);
    rmSync(`${s3.dataDir}.log`);
  }, 30_000);

  it('writes an object into a directory while the delete of its last object empties it, and keeps running', async () => {
    const reported = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const s3 = await startPrivateS3();
    const object = (key: string) => `${s3.url}/${s3.env.S3_BUCKET}/${key}`;
    const body = Buffer.alloc(2_000, 'x');
    const statuses: number[] = [];
    try {
      // Unserialized, s3rver 3.7 ended within a few dozen rounds: the write's file had no directory any more.
      for (let round = 0; round < 200; round += 1) {
        const directory = `organization/table-${round}`;
        statuses.push((await fetch(object(`${directory}/first`), { method: 'PUT', body })).status);
        const [deleted, written] = await Promise.all([fetch(object(`${directory}/first`), { method: 'DELETE' }), fetch(object(`${directory}/second`), { method: 'PUT', body })]);
        statuses.push(deleted.status, written.status);
        expect(Buffer.from(await (await fetch(object(`${directory}/second`))).arrayBuffer()).equals(body)).toBe(true);
      }
      expect(reportsOf(reported)).toBe('');
    } finally {
      reported.mockRestore();
      await s3.destroy();
    }
    expect(new Set(statuses)).toEqual(new Set([200, 204]));
  }, 60_000);

  it('leaves no output file behind when it never crashed', async () => {
    const s3 = await startPrivateS3({ keepRunning: true });
    expect(existsSync(`${s3.dataDir}.log`)).toBe(true);
    await s3.destroy();
    expect([existsSync(s3.dataDir), existsSync(`${s3.dataDir}.log`)]).toEqual([false, false]);
  }, 30_000);

  it('stays down after a crash otherwise', async () => {
    const reported = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const s3 = await startPrivateS3();
    try {
      await crashAndSeeItStayDown(s3);
    } finally {
      reported.mockRestore();
      await s3.destroy();
    }
    rmSync(`${s3.dataDir}.log`, { force: true });
  }, 30_000);

  it('neither reports nor restarts an exit the caller expected (a test killing its host), and starts again when asked', async () => {
    const reported = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const s3 = await startPrivateS3({ keepRunning: true });
    try {
      s3.expectExit();
      await crashAndSeeItStayDown(s3);
      expect(reportsOf(reported)).not.toContain('exited unasked');
      // Started again, it is a server like any other: its own crash is reported and restarted.
      await s3.start();
      await crashAndWaitForRestart(s3);
      expect(reportsOf(reported)).toContain(crashReport(s3));
    } finally {
      reported.mockRestore();
      await s3.destroy();
    }
    rmSync(`${s3.dataDir}.log`, { force: true });
  }, 45_000);
});
