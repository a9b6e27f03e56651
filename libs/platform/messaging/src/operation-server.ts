import { Logger } from '@nestjs/common';
import type { ServiceReply, ServiceRequest } from '@contracts';
import { AppError, isErrorBody } from '@platform/errors';
import { DeadlineExceededError, runInQueryScope } from '@platform/persistence';
import { JSONCodec, Msg, NatsConnection, Subscription } from 'nats';
import { replyInternalError } from './failure-reply';
import type { LargePayloads } from './large-payloads';
import type { BoundHandler } from './operation-handler';
import { requestPayloads } from './payload-buckets';
import type { ReplyPacket, RequestPacket } from './service-request';

const codec = JSONCodec<RequestPacket | ReplyPacket>();

/**
 * Answers the declared operations of a service on NATS, in its queue group so replicas share the work:
 * each message goes straight to its handler, inside the query scope of its organization and deadline,
 * and its answer or failure goes back as a ServiceReply. The message passed the gateway's validation,
 * so nothing checks it again on the way in. Bodies too large for one message come and go as claim checks
 * (LargePayloads); a reply that cannot be sent is logged, never thrown where it would end the process.
 */
export class OperationServer {
  private readonly logger = new Logger('OperationServer');
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly payloads: LargePayloads;

  constructor(
    private readonly nc: NatsConnection,
    private readonly queue: string,
  ) {
    this.payloads = requestPayloads(nc);
  }

  serve(handlers: BoundHandler[]): void {
    for (const handler of handlers) {
      this.subscriptions.push(
        this.nc.subscribe(handler.subject, {
          queue: this.queue,
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
  }

  /**
   * Leaves the queue group without dropping a request: draining the subscriptions hands the messages NATS
   * already routed here to their handlers (new ones go to the other replicas), then waits for the answers
   * in hand, at most `graceMs` (their deadlines end them anyway), and closes the connection once its
   * answers are flushed.
   */
  async close(graceMs: number): Promise<void> {
    await Promise.all(this.subscriptions.map((subscription) => subscription.drain().catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all(this.inFlight), graceOver]);
    clearTimeout(timer);
    await this.nc.drain();
  }

  private async answer(handler: BoundHandler, message: Msg): Promise<void> {
    let packet: RequestPacket | undefined;
    let response: ServiceReply;
    try {
      packet = codec.decode(await this.payloads.open(message)) as RequestPacket;
      response = await this.run(handler, packet.data);
    } catch (error) {
      response = { ok: false, error: this.failure(error, handler.subject, packet?.data) };
    }
    if (!message.reply) return;
    try {
      const { data, headers } = await this.payloads.seal(codec.encode({ id: packet?.id, response, isDisposed: true }));
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
