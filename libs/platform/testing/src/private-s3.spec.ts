import { existsSync, rmSync } from 'node:fs';
import { eventually } from './eventually';
import { answersHttp, startPrivateS3 } from './private-s3';

describe('the private S3 server', () => {
  it('starts again on its port when it crashes, if asked to keep running, and reports the crash', async () => {
    const reported = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const s3 = await startPrivateS3({ keepRunning: true });
    try {
      const first = s3.pid!;
      process.kill(first, 'SIGKILL');
      await eventually(async () => expect([s3.pid !== undefined && s3.pid !== first, await answersHttp(s3.url)]).toEqual([true, true]), { timeoutMs: 15_000 });
      expect(reported.mock.calls.map(([line]) => String(line)).join('')).toContain(`s3rver on ${s3.url} exited unasked (code null, signal SIGKILL)`);
    } finally {
      reported.mockRestore();
      await s3.destroy();
    }
    expect(await answersHttp(s3.url)).toBe(false);
    // The report names the emulator's output: it outlives the server.
    expect(existsSync(`${s3.dataDir}.log`)).toBe(true);
    rmSync(`${s3.dataDir}.log`);
  }, 30_000);

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
      process.kill(s3.pid!, 'SIGKILL');
      await eventually(() => expect(s3.pid).toBeUndefined(), { timeoutMs: 5_000 });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect([s3.pid, await answersHttp(s3.url)]).toEqual([undefined, false]);
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
      process.kill(s3.pid!, 'SIGKILL');
      await eventually(() => expect(s3.pid).toBeUndefined(), { timeoutMs: 5_000 });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect([s3.pid, await answersHttp(s3.url)]).toEqual([undefined, false]);
      expect(reported.mock.calls.map(([line]) => String(line)).join('')).not.toContain('exited unasked');
      // A start afterwards is a server like any other: its own crash is reported again.
      await s3.start();
      const started = s3.pid!;
      process.kill(started, 'SIGKILL');
      await eventually(async () => expect([s3.pid !== undefined && s3.pid !== started, await answersHttp(s3.url)]).toEqual([true, true]), { timeoutMs: 15_000 });
      expect(reported.mock.calls.map(([line]) => String(line)).join('')).toContain(`s3rver on ${s3.url} exited unasked (code null, signal SIGKILL)`);
    } finally {
      reported.mockRestore();
      await s3.destroy();
    }
    rmSync(`${s3.dataDir}.log`, { force: true });
  }, 45_000);
});
