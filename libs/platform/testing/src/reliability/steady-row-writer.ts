/** How one write ended: acknowledged, a clean error answer, no connection, or no answer within the bound. */
export type WriteResult = 'acked' | 'error-answer' | 'connection-error' | 'timeout';

export interface WriteOutcome {
  seq: number;
  /** The gateway it was sent to. */
  gatewayUrl: string;
  startedAt: number;
  endedAt: number;
  result: WriteResult;
  status: number;
  rowId?: string;
  /** `error.code` of an error answer; anything not in the error body is kept raw to be reported. */
  errorCode?: string;
  detail?: string;
}

export interface SteadyRowWriterOptions {
  /** One gateway, or a choice made per request (a load balancer's). */
  gatewayUrl: string | (() => string);
  key: string;
  tableId: string;
  ratePerSecond: number;
  /** No request may take longer than this: past it the client gives up and counts a hang. */
  timeoutMs: number;
}

/**
 * Creates rows at a steady rate (open model: a slow answer does not slow the next request down), each
 * carrying its sequence number, and records how each request ended.
 */
export class SteadyRowWriter {
  readonly outcomes: WriteOutcome[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;

  constructor(private readonly options: SteadyRowWriterOptions) {}

  start(): void {
    this.timer = setInterval(() => this.fire(), 1000 / this.options.ratePerSecond);
  }

  /** Stops sending and waits for every request in flight to end. */
  async stop(): Promise<WriteOutcome[]> {
    clearInterval(this.timer);
    await Promise.all(this.inFlight);
    return this.outcomes;
  }

  private fire(): void {
    const seq = ++this.seq;
    const request = this.write(seq).then((outcome) => {
      this.outcomes.push(outcome);
      this.inFlight.delete(request);
    });
    this.inFlight.add(request);
  }

  private async write(seq: number): Promise<WriteOutcome> {
    const { key, tableId, timeoutMs } = this.options;
    const gatewayUrl = typeof this.options.gatewayUrl === 'string' ? this.options.gatewayUrl : this.options.gatewayUrl();
    const startedAt = Date.now();
    const ended = (fields: Omit<WriteOutcome, 'seq' | 'gatewayUrl' | 'startedAt' | 'endedAt'>): WriteOutcome => ({ seq, gatewayUrl, startedAt, endedAt: Date.now(), ...fields });
    try {
      const res = await fetch(`${gatewayUrl}/tables/${tableId}/rows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { n: seq } }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        return ended({ result: 'error-answer', status: res.status, detail: `not JSON: ${text.slice(0, 200)}` });
      }
      if (res.status === 201) return ended({ result: 'acked', status: 201, rowId: body?.data?.id });
      const cleanBody = body?.success === false && typeof body?.error?.code === 'string' && typeof body?.error?.message === 'string';
      return ended({ result: 'error-answer', status: res.status, errorCode: body?.error?.code, detail: cleanBody ? undefined : text.slice(0, 200) });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') return ended({ result: 'timeout', status: 0 });
      return ended({ result: 'connection-error', status: 0, detail: String((error as Error & { cause?: Error }).cause?.message ?? error) });
    }
  }
}
