import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { AppError, isErrorBody } from '@platform/errors';
import type { ServiceReply, ServiceResult } from '@contracts';
import { catchError, map, Observable, of } from 'rxjs';
import type { InFlightRequests } from './in-flight-requests';

/**
 * Every request-reply handler answers `{ok: true, ...result}` or `{ok: false, error}`. Domain failures
 * travel as their ErrorBody; anything unexpected is logged here and leaves as a bare INTERNAL_ERROR.
 * The process's own HTTP routes (probes, `/metrics`) answer as they are: the interceptor is global, so
 * it leaves every context but RPC alone. Each handler counts in `inFlight` until it has answered, so a
 * shutdown can wait for the answers.
 */
@Injectable()
export class ServiceReplyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('ServiceReply');

  constructor(private readonly inFlight?: InFlightRequests) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const reply = next.handle().pipe(
      map((result: ServiceResult | undefined): ServiceReply => ({ ok: true, ...(result ?? {}) })),
      catchError((error: unknown) => of(this.toReply(error, context))),
    );
    return this.inFlight ? this.inFlight.track(reply) : reply;
  }

  private toReply(error: unknown, context: ExecutionContext): ServiceReply {
    if (error instanceof AppError) return { ok: false, error: error.toBody() };
    if (isErrorBody(error)) return { ok: false, error };
    const pattern = context.switchToRpc().getContext()?.getSubject?.() ?? 'unknown';
    this.logger.error({ err: error, pattern }, 'unhandled error in message handler');
    return { ok: false, error: AppError.internal().toBody() };
  }
}
