import { Logger } from '@nestjs/common';
import { NatsContext, ServerNats } from '@nestjs/microservices';
import { Msg, NatsConnection } from 'nats';
import { replyInternalError } from './failure-reply';
import { LargePayloads } from './large-payloads';
import { requestPayloads } from './payload-buckets';

type NatsOptions = ConstructorParameters<typeof ServerNats>[0];

/**
 * Nest's NATS server, with bodies of any size and no transport error that can end the process. A request
 * that came as a claim check is opened before Nest reads it, and a reply too large for one message leaves
 * as one (LargePayloads); a message that cannot be read, or a reply that cannot be sent, is logged and
 * answered with an INTERNAL_ERROR where an answer can still go, where Nest would let the error escape
 * and the process exit.
 */
export class ServiceTransport extends ServerNats {
  private readonly log = new Logger('ServiceTransport');
  private payloads?: LargePayloads;

  constructor(options: NatsOptions) {
    super(options);
  }

  override async createNatsClient(): Promise<NatsConnection> {
    const nc = (await super.createNatsClient()) as NatsConnection;
    this.payloads = requestPayloads(nc);
    return nc;
  }

  override async handleMessage(channel: string, natsMsg: Msg): Promise<void> {
    try {
      await super.handleMessage(channel, LargePayloads.isClaimCheck(natsMsg) ? await this.opened(natsMsg) : natsMsg);
    } catch (error) {
      this.log.error({ err: error, pattern: channel }, 'could not take a request');
      replyInternalError(natsMsg, undefined, this.log);
    }
  }

  override getPublisher(natsMsg: Msg, id: string, ctx: NatsContext): (response: object) => Promise<void> {
    if (!natsMsg.reply) return async () => undefined;
    return async (response) => {
      try {
        const outgoing = this.serializer.serialize({ ...response, id }) as { data: Uint8Array; headers?: Msg['headers'] };
        this.onProcessingEndHook?.(this.transportId, ctx);
        const { data, headers } = await this.carrier().seal(outgoing.data, outgoing.headers);
        natsMsg.respond(data, { headers });
      } catch (error) {
        this.log.error({ err: error, pattern: ctx.getSubject() }, 'could not send a reply');
        replyInternalError(natsMsg, id, this.log);
      }
    };
  }

  /** The message with the body its claim check names; every other part as received. */
  private async opened(natsMsg: Msg): Promise<Msg> {
    const data = await this.carrier().open(natsMsg);
    // The received message's own methods (respond, string, json) read `data` through `this`.
    return Object.create(natsMsg, { data: { value: data } }) as Msg;
  }

  private carrier(): LargePayloads {
    if (!this.payloads) throw new Error('the NATS connection is not open');
    return this.payloads;
  }
}
