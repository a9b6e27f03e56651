import { ErrorBody, ErrorCode, ERROR_CODES, ValidationDetails } from './error-code';

/** A failure that is the caller's to see: it crosses NATS as an ErrorBody and reaches the client as is. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorBody['details'],
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromBody(body: ErrorBody): AppError {
    return new AppError(body.code, body.message, body.details);
  }

  static validation(field: string, reason: string): AppError {
    const details: ValidationDetails = { field, reason };
    return new AppError(ErrorCode.ValidationError, `${field}: ${reason}`, details);
  }

  static notFound(what = 'Resource'): AppError {
    return new AppError(ErrorCode.NotFound, `${what} not found`);
  }

  static conflict(message: string): AppError {
    return new AppError(ErrorCode.Conflict, message);
  }

  /** An organization already holds as many of something as it may. */
  static limitExceeded(message: string): AppError {
    return new AppError(ErrorCode.LimitExceeded, message);
  }

  static badRequest(message: string): AppError {
    return new AppError(ErrorCode.BadRequest, message);
  }

  static internal(message = 'An internal error occurred'): AppError {
    return new AppError(ErrorCode.InternalError, message);
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === 'string' && ERROR_CODES.has(code) && typeof message === 'string';
}
