import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import type { ServiceReply, ServiceRequest } from '@contracts';
import { AppError, isErrorBody } from '@platform/errors';
import { DeadlineExceededError, runInQueryScope } from '@platform/persistence';
import { JSONCodec, Msg, NatsConnection, Subscription } from 'nats';
import { replyInternalError } from './failure-reply';
import type { LargePayloads } from './large-payloads';
import type { BoundHandler } from './operation-handler';
import { requestPayloads } from './payload-buckets';
import { replyPacketText } from './reply-packet';
import type { RequestPacket } from './service-request';

const codec = JSONCodec<RequestPacket>();

/** What an OperationServer needs: its NATS connection (made when Nest starts it), queue group and handlers. */
export interface OperationServerOptions {
  connect: () => Promise<NatsConnection>;
  queue: string;
  handlers: BoundHandler[];
  /** How long closing waits for the answers in hand (their deadlines end them anyway). */
  shutdownGraceMs: number;
}

/**
 * The service's Nest microservice transport (a custom transport strategy of `@nestjs/microservices`):
 * answers the declared operations on NATS, in its queue group so replicas share the work. Each message
 * goes straight to the one handler bound to its subject (`@Handles`), inside the query scope of its
 * organization and deadline, and its answer or failure goes back as a ServiceReply. The message passed
 * the gateway's validation, so no pipe, guard or interceptor checks it again on the way in (Nest's NATS
 * transport would run its pipeline and parse its own packet for every message). Bodies too large for one
 * message come and go as claim checks (LargePayloads); a reply that cannot be sent is logged, never thrown
 * where it would end the process.
 */
export class OperationServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger('OperationServer');
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private nc?: NatsConnection;
  private payloads?: LargePayloads;

  constructor(private readonly options: OperationServerOptions) {
    super();
  }

  /** Nest starts it with the application: connect, then one queue subscription per declared operation. */
  async listen(callback: () => void): Promise<void> {
    const nc = await this.options.connect();
    this.nc = nc;
    this.payloads = requestPayloads(nc);
    for (const handler of this.options.handlers) {
      this.subscriptions.push(
        nc.subscribe(handler.subject, {
          queue: this.options.queue,
          callback: (error, message) => {
            if (error) {
              this.logger.error({ err: error, subject: handler.subject }, 'operation subscription failed');
              return;
            }
            const answered = this.answer(handler, message);
            this.inFlight.add(answered);
            void answered.finally(() => this.inFlight.delete(answered));
          },
        }),
      );
    }
    callback();
  }

  /**
   * Leaves the queue group without dropping a request (Nest calls it when the application closes):
   * draining the subscriptions hands the messages NATS already routed here to their handlers (new ones
   * go to the other replicas), then waits for the answers in hand, at most the shutdown grace, and
   * closes the connection once its answers are flushed.
   */
  async close(): Promise<void> {
    if (!this.nc || this.nc.isClosed()) return;
    await Promise.all(this.subscriptions.map((subscription) => subscription.drain().catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.shutdownGraceMs)));
    await Promise.race([Promise.all(this.inFlight), graceOver]);
    clearTimeout(timer);
    await this.nc.drain();
  }

  /** Connection status reaches the health checks through the NATS connection itself, not Nest's events. */
  on(): void {
    throw new Error('OperationServer has no events to listen to');
  }

  unwrap<T>(): T {
    if (!this.nc) throw new Error('OperationServer is not listening');
    return this.nc as T;
  }

  private async answer(handler: BoundHandler, message: Msg): Promise<void> {
    let packet: RequestPacket | undefined;
    let response: ServiceReply;
    try {
      packet = codec.decode(await this.payloads!.open(message)) as RequestPacket;
      response = await this.run(handler, packet.data);
    } catch (error) {
      response = { ok: false, error: this.failure(error, handler.subject, packet?.data) };
    }
    if (!message.reply) return;
    try {
      const { data, headers } = await this.payloads!.seal(Buffer.from(replyPacketText(packet?.id, response)));
      message.respond(data, { headers });
    } catch (error) {
      this.logger.error({ err: error, pattern: handler.subject, requestId: packet?.data?.requestId }, 'could not send a reply');
      replyInternalError(message, packet?.id, this.logger);
    }
  }

  private async run(handler: BoundHandler, request: ServiceRequest<object>): Promise<ServiceReply> {
    const caller = { org: request.org, requestId: request.requestId, callId: request.callId };
    // A message without a deadline (a tool on NATS, not the gateway) runs without a query scope.
    if (typeof request.timeoutMs !== 'number') return { ok: true, ...(await handler.handle(request.params, caller)) };
    const deadline = Date.now() + request.timeoutMs;
    try {
      const result = await runInQueryScope({ organizationId: request.org.id, deadline }, () => handler.handle(request.params, caller));
      return { ok: true, ...result };
    } catch (error) {
      if (!(error instanceof DeadlineExceededError) && Date.now() < deadline) throw error;
      // Work that outlived its deadline leaves as an INTERNAL_ERROR nobody reads.
      this.logger.warn(
        { pattern: handler.subject, requestId: request.requestId, organizationId: request.org.id, timeoutMs: request.timeoutMs },
        'request outlived its deadline',
      );
      return { ok: false, error: AppError.internal('The request did not finish in time').toBody() };
    }
  }

  /** Domain failures travel as their ErrorBody; anything unexpected is logged here and leaves as a bare INTERNAL_ERROR. */
  private failure(error: unknown, subject: string, request: ServiceRequest<object> | undefined) {
    if (error instanceof AppError) return error.toBody();
    if (isErrorBody(error)) return error;
    this.logger.error({ err: error, pattern: subject, requestId: request?.requestId }, 'unhandled error in message handler');
    return AppError.internal().toBody();
  }
}
