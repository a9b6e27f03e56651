import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { OrgContext, ServiceReply, ServiceRequest, ServiceResult } from '@contracts';
import { AppError, isErrorBody } from '@platform/errors';
import { histogram, NATS_CONNECTION } from '@platform/service';
import { ErrorCode as NatsErrorCode, JSONCodec, NatsConnection, NatsError } from 'nats';
import { GatewayConfig } from '../gateway.config';

const natsLatency = histogram('nats_request_duration_seconds', 'Request-reply latency to the services', ['pattern', 'outcome']);

/** Nest's NATS transport packets: what its message handlers expect, and what they answer. */
interface RequestPacket {
  pattern: string;
  data: ServiceRequest<object>;
  id: string;
}
interface ReplyPacket {
  id?: string;
  response?: ServiceReply;
  err?: unknown;
}

const codec = JSONCodec<RequestPacket | ReplyPacket>();

/** Who is calling: attached to every message the gateway sends. */
export interface Caller {
  org: OrgContext;
  requestId: string;
}

/**
 * Request-reply to the services' `@MessagePattern` handlers over NATS, with a deadline. It speaks
 * Nest's NATS packet format through the connection's one shared reply subscription, rather than
 * subscribing a fresh inbox for every request. Replies become results or AppErrors.
 */
@Injectable()
export class ServiceBus implements OnModuleInit {
  private readonly logger = new Logger('ServiceBus');
  /** While NATS is away, requests fail at once instead of waiting out their deadline. */
  private connected = true;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect') this.connected = false;
        else if (status.type === 'reconnect') this.connected = true;
      }
    })();
  }

  /** `timeoutMs` overrides NATS_REQUEST_TIMEOUT_MS for a call that waits on the outside world by design. */
  async send<T = unknown>(pattern: string, caller: Caller, params: object = {}, { timeoutMs }: { timeoutMs?: number } = {}): Promise<ServiceResult<T>> {
    const timeout = timeoutMs ?? this.config.NATS_REQUEST_TIMEOUT_MS;
    const packet: RequestPacket = { pattern, data: { org: caller.org, requestId: caller.requestId, timeoutMs: timeout, params }, id: randomUUID() };
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      if (!this.connected) throw new Error('NATS is disconnected');
      const message = await this.nc.request(pattern, codec.encode(packet), { timeout });
      const reply = (codec.decode(message.data) as ReplyPacket).response;
      if (reply?.ok === true) {
        const { ok: _ok, ...result } = reply;
        return result as ServiceResult<T>;
      }
      outcome = 'error';
      if (reply?.ok === false && isErrorBody(reply.error)) throw AppError.fromBody(reply.error);
      throw new Error(`malformed reply to ${pattern}`);
    } catch (error) {
      if (error instanceof AppError) throw error;
      const timedOut = error instanceof NatsError && error.code === NatsErrorCode.Timeout;
      outcome = timedOut ? 'timeout' : 'unavailable';
      this.logger.error({ err: error, pattern, requestId: caller.requestId }, `service request ${outcome}`);
      throw AppError.internal(timedOut ? 'The service did not answer in time' : 'The service is unavailable');
    } finally {
      natsLatency.observe({ pattern, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }
}
