import { startPrivateS3 } from './private-s3';

const answers = async (url: string) => {
  try {
    await fetch(url, { signal: AbortSignal.timeout(500) });
    return true;
  } catch {
    return false;
  }
};

async function within<T>(ms: number, probe: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the private S3 server', () => {
  it('starts again on its port when it crashes, if asked to keep running, and reports the crash', async () => {
    const reported = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const s3 = await startPrivateS3({ keepRunning: true });
    try {
      const first = s3.pid!;
      process.kill(first, 'SIGKILL');
      const next = await within(15_000, async () => (s3.pid !== undefined && s3.pid !== first && (await answers(s3.url)) ? s3.pid : undefined));
      expect(next).toBeDefined();
      expect(reported.mock.calls.map(([line]) => String(line)).join('')).toContain(`s3rver on ${s3.url} exited unasked (code null, signal SIGKILL)`);
    } finally {
      reported.mockRestore();
      await s3.destroy();
    }
    expect(await answers(s3.url)).toBe(false);
  }, 30_000);

  it('stays down after a crash otherwise', async () => {
    const reported = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const s3 = await startPrivateS3();
    try {
      process.kill(s3.pid!, 'SIGKILL');
      await within(5_000, async () => (s3.pid === undefined ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect([s3.pid, await answers(s3.url)]).toEqual([undefined, false]);
    } finally {
      reported.mockRestore();
      await s3.destroy();
    }
  }, 30_000);
});
