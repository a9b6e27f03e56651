/** The one error vocabulary, shared by every context. Only the gateway turns a code into an HTTP status. */
export const ErrorCode = {
  ValidationError: 'VALIDATION_ERROR',
  BadRequest: 'BAD_REQUEST',
  Conflict: 'CONFLICT',
  DomainNotVerified: 'DOMAIN_NOT_VERIFIED',
  LimitExceeded: 'LIMIT_EXCEEDED',
  Unauthorized: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  PlanRequired: 'PLAN_REQUIRED',
  NotFound: 'NOT_FOUND',
  RateLimited: 'RATE_LIMITED',
  InternalError: 'INTERNAL_ERROR',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ERROR_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

export interface ValidationDetails {
  field: string;
  reason: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: ValidationDetails | Record<string, unknown>;
}
