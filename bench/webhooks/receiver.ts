import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** Paths under this prefix never get an answer: a receiver that hangs. */
export const HANGING_PREFIX = '/hang';

/** Records when each webhook request arrived, keyed by the row id in its payload; requests to `/hang...` are left open. */
export class ArrivalRecorder {
  readonly arrivals: Array<{ rowId: string; at: number; path: string }> = [];
  bodyBytes = 0;
  /** Unanswered requests open now, the most open at once, and how many there were in all. */
  hanging = 0;
  hangingPeak = 0;
  hangingTotal = 0;
  private server?: Server;

  async listen(): Promise<number> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const at = performance.now() + performance.timeOrigin;
        const body = Buffer.concat(chunks);
        if (req.url?.startsWith(HANGING_PREFIX)) {
          this.hanging += 1;
          this.hangingTotal += 1;
          this.hangingPeak = Math.max(this.hangingPeak, this.hanging);
          req.socket.once('close', () => (this.hanging -= 1));
          return;
        }
        res.writeHead(204).end();
        if (req.url === '/ceiling') return;
        this.bodyBytes = body.length;
        const rowId = /"row_id":"([0-9a-f-]{36})"/.exec(body.toString('utf8'))?.[1];
        if (rowId) this.arrivals.push({ rowId, at, path: req.url ?? '/' });
      });
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  reset(): void {
    this.arrivals.length = 0;
    this.hangingPeak = this.hanging;
    this.hangingTotal = 0;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
