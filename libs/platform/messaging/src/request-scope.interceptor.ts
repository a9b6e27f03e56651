import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { ServiceRequest } from '@contracts';
import { AppError } from '@platform/errors';
import { DeadlineExceededError, runInQueryScope } from '@platform/persistence';
import { catchError, Observable, throwError } from 'rxjs';

/**
 * Runs each request-reply handler in the query scope of its message: the organization it acts for and
 * the deadline the gateway sent, so the database pool gives it that organization's share and ends its
 * SQL when the caller stops waiting. Work that outlived its deadline leaves as an INTERNAL_ERROR nobody
 * reads, logged as a warning.
 */
@Injectable()
export class RequestScopeInterceptor implements NestInterceptor {
  private readonly logger = new Logger('RequestScope');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const request = context.switchToRpc().getData() as Partial<ServiceRequest> | undefined;
    const organizationId = request?.org?.id;
    const timeoutMs = request?.timeoutMs;
    if (typeof organizationId !== 'string' || typeof timeoutMs !== 'number') return next.handle();
    const deadline = Date.now() + timeoutMs;
    // Nest binds the handler to the async context in which handle() is called.
    return runInQueryScope({ organizationId, deadline }, () => next.handle()).pipe(
      catchError((error: unknown) => {
        if (!(error instanceof DeadlineExceededError) && Date.now() < deadline) return throwError(() => error);
        const pattern = context.switchToRpc().getContext()?.getSubject?.() ?? 'unknown';
        this.logger.warn({ pattern, requestId: request?.requestId, organizationId, timeoutMs }, 'request outlived its deadline');
        return throwError(() => AppError.internal('The request did not finish in time'));
      }),
    );
  }
}
