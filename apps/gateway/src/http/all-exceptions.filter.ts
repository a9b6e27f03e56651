import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, LoggerService } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isBodyTooLarge, sendError, toAppError } from './error-reply';
import { DRAINED_BODY_BYTES } from './fastify-server';

/**
 * A failure's answer, in the documented error body: what the routes and Nest's own handlers (unknown
 * routes, Fastify's parse errors) send. Only an unexpected failure is logged, and nothing of it reaches
 * the client.
 */
export function replyWithFailure(request: FastifyRequest, reply: FastifyReply, exception: unknown, logger: LoggerService): FastifyReply {
  const source = exception instanceof HttpException ? { statusCode: exception.getStatus(), message: exception.message } : exception;
  const { appError, unexpected } = toAppError(source);
  if (unexpected) logger.error({ err: exception, requestId: request.id, url: request.url }, 'unhandled error');
  if (isBodyTooLarge(source) && Number(request.headers['content-length']) <= DRAINED_BODY_BYTES) {
    reply.removeHeader('connection');
  }
  return sendError(reply, appError);
}

/** Every failure that reaches Nest (unknown routes, Fastify's own errors) leaves in the documented error body. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    void replyWithFailure(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), exception, this.logger);
  }
}
