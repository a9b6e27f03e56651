import { AppError, ErrorCode } from '@platform/errors';
import type { FastifyReply } from 'fastify';
import { HTTP_STATUS } from './http-status';

export function errorPayload(error: AppError) {
  return { success: false as const, error: error.toBody() };
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  return reply.code(HTTP_STATUS[error.code]).type('application/json').send(errorPayload(error));
}

/** What Fastify (or a library below it) puts on an error it raises: a code and an HTTP status. */
function fastifyFailure(error: unknown): { code?: string; httpStatus?: number } {
  const { statusCode, status, code } = (error ?? {}) as { statusCode?: number; status?: number; code?: string };
  return { code, httpStatus: statusCode ?? status };
}

/** Whether Fastify refused the request's body for its size (it has not read it). */
export function isBodyTooLarge(error: unknown): boolean {
  const { code, httpStatus } = fastifyFailure(error);
  return code === 'FST_ERR_CTP_BODY_TOO_LARGE' || httpStatus === 413;
}

/**
 * Turns whatever was thrown or raised by Fastify into the error vocabulary. Nothing of an unexpected
 * error reaches the client; the caller logs it.
 */
export function toAppError(error: unknown): { appError: AppError; unexpected: boolean } {
  if (error instanceof AppError) return { appError: error, unexpected: false };
  const { code, httpStatus } = fastifyFailure(error);
  if (isBodyTooLarge(error)) {
    return { appError: AppError.badRequest('Request body is larger than 1 MiB'), unexpected: false };
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || httpStatus === 415) {
    return { appError: AppError.badRequest('Content-Type must be application/json'), unexpected: false };
  }
  if (error instanceof SyntaxError) {
    return { appError: AppError.badRequest('Request body is not valid JSON'), unexpected: false };
  }
  if (code === 'FST_ERR_BAD_URL') return { appError: AppError.badRequest('Malformed URL'), unexpected: false };
  if (code === 'FST_ERR_MAX_PARAM_LENGTH' || httpStatus === 414) return { appError: AppError.notFound(), unexpected: false };
  if (httpStatus === 404) return { appError: new AppError(ErrorCode.NotFound, 'Route not found'), unexpected: false };
  if (httpStatus !== undefined && httpStatus >= 400 && httpStatus < 500) {
    return { appError: AppError.badRequest((error as Error).message || 'Bad request'), unexpected: false };
  }
  return { appError: AppError.internal(), unexpected: true };
}
