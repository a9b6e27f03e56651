import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { OrgContext, ServiceRequest } from '@contracts';
import { AppError } from '@platform/errors';
import { requestServiceJson } from '@platform/messaging';
import { histogram, NATS_CONNECTION } from '@platform/service';
import { ErrorCode as NatsErrorCode, NatsConnection, NatsError } from 'nats';
import { GatewayConfig } from '../gateway.config';
import { firstAnswer } from './first-answer';

const natsLatency = histogram('nats_request_duration_seconds', 'Request-reply latency to the services', ['pattern', 'outcome']);

/**
 * How long a request waits for the connection to come back before it fails. A client whose NATS node
 * died reconnects to another node of the cluster within a few hundred milliseconds (publishes are
 * buffered meanwhile), so the requests of that moment go through; when NATS is away as a whole, they
 * fail after this instead of waiting out their deadline.
 */
const RECONNECT_GRACE_MS = 2_000;
/**
 * NATS answers "no responders" when no replica of the service holds a subscription at that instant (all
 * of them reconnecting to other nodes of a cluster, or a lone replica restarting). Nothing received the
 * request, so sending it again is safe: every this often, within the same grace.
 */
const NO_RESPONDERS_RETRY_MS = 100;

const isNoResponders = (error: unknown) => error instanceof NatsError && error.code === NatsErrorCode.NoResponders;

/** Who is calling: attached to every message the gateway sends. */
export interface Caller {
  org: OrgContext;
  requestId: string;
}

/**
 * Request-reply to the services' handlers over NATS (`requestServiceJson`), with a deadline. Replies become
 * results, as the JSON text the service wrote, or AppErrors; a service that does not answer, an INTERNAL_ERROR.
 */
@Injectable()
export class ServiceBus implements OnModuleInit {
  private readonly logger = new Logger('ServiceBus');
  private connected = true;
  /** Resolves at the next reconnect while the connection is away. */
  private reconnected: Promise<void> = Promise.resolve();
  private markReconnected: () => void = () => undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect' && this.connected) {
          this.connected = false;
          this.reconnected = new Promise((resolve) => (this.markReconnected = resolve));
        } else if (status.type === 'reconnect') {
          this.connected = true;
          this.markReconnected();
        }
      }
    })();
  }

  /**
   * `timeoutMs` overrides NATS_REQUEST_TIMEOUT_MS for a call that waits on the outside world by design.
   * A `resendable` call unanswered after NATS_RESEND_AFTER_MS is sent again under the same call id, and the
   * first answer of any send is the call's: a send lost with a host (its message on a NATS node that died,
   * or taken by a service that died) then costs that delay instead of the whole deadline and a 500.
   */
  async send(
    pattern: string,
    caller: Caller,
    params: object = {},
    { timeoutMs, resendable = false }: { timeoutMs?: number; resendable?: boolean } = {},
  ): Promise<string> {
    const timeout = timeoutMs ?? this.config.NATS_REQUEST_TIMEOUT_MS;
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      const deadline = Date.now() + timeout;
      const call = { org: caller.org, requestId: caller.requestId, callId: randomUUID(), params };
      const sendOnce = () => this.sendOnce(pattern, call, deadline);
      const resendAfter = this.config.NATS_RESEND_AFTER_MS;
      return resendable && resendAfter > 0 ? await firstAnswer(sendOnce, resendAfter, deadline) : await sendOnce();
    } catch (error) {
      outcome = 'error';
      if (error instanceof AppError) throw error;
      const timedOut = error instanceof NatsError && error.code === NatsErrorCode.Timeout;
      outcome = timedOut ? 'timeout' : 'unavailable';
      this.logger.error({ err: error, pattern, requestId: caller.requestId }, `service request ${outcome}`);
      throw AppError.internal(timedOut ? 'The service did not answer in time' : 'The service is unavailable');
    } finally {
      natsLatency.observe({ pattern, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  private async sendOnce(pattern: string, call: Omit<ServiceRequest<object>, 'timeoutMs'>, deadline: number): Promise<string> {
    const graceEnds = Date.now() + Math.min(deadline - Date.now(), RECONNECT_GRACE_MS);
    for (;;) {
      if (!this.connected) await this.awaitReconnect(graceEnds - Date.now());
      try {
        return await requestServiceJson(this.nc, pattern, { ...call, timeoutMs: deadline - Date.now() });
      } catch (error) {
        if (!isNoResponders(error) || Date.now() + NO_RESPONDERS_RETRY_MS >= graceEnds) throw error;
        await new Promise((resolve) => setTimeout(resolve, NO_RESPONDERS_RETRY_MS));
      }
    }
  }

  private async awaitReconnect(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, graceMs))));
    await Promise.race([this.reconnected, gaveUp]);
    clearTimeout(timer);
    if (!this.connected) throw new Error('NATS is disconnected');
  }
}
