import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as it arrived. */
  body: Buffer;
  receivedAt: number;
}

export type Answer = { status: number; body?: string } | 'hang';
export type Responder = (request: ReceivedRequest, countForPath: number) => Answer | Promise<Answer>;

/** A webhook receiver on loopback that records every request and answers as the test says, per path. */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly responders = new Map<string, Responder>();
  /** Requests left hanging and still open, with their path. */
  private readonly hanging = new Map<ServerResponse, string>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new Receiver(server, (server.address() as AddressInfo).port);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void receiver.answer(req.url ?? '/', req.headers, Buffer.concat(chunks), res));
    });
    return receiver;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** How requests to `path` are answered; 200 unless told otherwise. */
  on(path: string, responder: Responder): void {
    this.responders.set(path, responder);
  }

  at(path: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** How many requests to `path` are hanging with their connection still open. */
  openAt(path: string): number {
    return [...this.hanging.values()].filter((hangingPath) => hangingPath === path).length;
  }

  /** Answers the requests that were left hanging. */
  release(status = 200): void {
    for (const res of [...this.hanging.keys()]) res.writeHead(status).end();
    this.hanging.clear();
  }

  async close(): Promise<void> {
    this.release(503);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async answer(path: string, headers: IncomingHttpHeaders, body: Buffer, res: ServerResponse): Promise<void> {
    const request = { path, headers, body, receivedAt: Date.now() };
    this.requests.push(request);
    const responder = this.responders.get(path) ?? (() => ({ status: 200, body: 'ok' }));
    const answer = await responder(request, this.at(path).length);
    if (answer === 'hang') {
      this.hanging.set(res, path);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
  }
}
