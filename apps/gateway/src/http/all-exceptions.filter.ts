import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isBodyTooLarge, sendError, toAppError } from './error-reply';
import { DRAINED_BODY_BYTES } from './fastify-server';

/** Every failure inside Nest (unknown routes included) leaves in the documented error body. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const source = exception instanceof HttpException ? { statusCode: exception.getStatus(), message: exception.message } : exception;
    const { appError, unexpected } = toAppError(source);
    if (unexpected) this.logger.error({ err: exception, requestId: request.id, url: request.url }, 'unhandled error');
    if (isBodyTooLarge(source) && Number(request.headers['content-length']) <= DRAINED_BODY_BYTES) {
      reply.removeHeader('connection');
    }
    void sendError(reply, appError);
  }
}
