import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import type { OrgContext, ServiceReply, ServiceRequest, ServiceResult } from '@contracts';
import { AppError, isErrorBody } from '@platform/errors';
import { histogram } from '@platform/service';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { GatewayConfig } from '../gateway.config';

export const SERVICES_CLIENT = Symbol('SERVICES_CLIENT');

const natsLatency = histogram('nats_request_duration_seconds', 'Request-reply latency to the services', ['pattern', 'outcome']);

/** Who is calling: attached to every message the gateway sends. */
export interface Caller {
  org: OrgContext;
  requestId: string;
}

/** Request-reply to the services over NATS, with a deadline; replies become results or AppErrors. */
@Injectable()
export class ServiceBus implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ServiceBus');

  constructor(
    @Inject(SERVICES_CLIENT) private readonly client: ClientProxy,
    private readonly config: GatewayConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.client.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  /** `timeoutMs` overrides NATS_REQUEST_TIMEOUT_MS for a call that waits on the outside world by design. */
  async send<T = unknown>(pattern: string, caller: Caller, params: object = {}, { timeoutMs }: { timeoutMs?: number } = {}): Promise<ServiceResult<T>> {
    const request: ServiceRequest<object> = { org: caller.org, requestId: caller.requestId, params };
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      const reply = await firstValueFrom(
        this.client.send<ServiceReply<T>>(pattern, request).pipe(timeout(timeoutMs ?? this.config.NATS_REQUEST_TIMEOUT_MS)),
      );
      if (reply && reply.ok === true) {
        const { ok: _ok, ...result } = reply;
        return result;
      }
      outcome = 'error';
      if (reply && reply.ok === false && isErrorBody(reply.error)) throw AppError.fromBody(reply.error);
      throw AppError.internal();
    } catch (error) {
      if (error instanceof AppError) throw error;
      outcome = error instanceof TimeoutError ? 'timeout' : 'unavailable';
      this.logger.error({ err: error, pattern, requestId: caller.requestId }, `service request ${outcome}`);
      throw AppError.internal(outcome === 'timeout' ? 'The service did not answer in time' : 'The service is unavailable');
    } finally {
      natsLatency.observe({ pattern, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }
}
