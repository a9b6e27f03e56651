import { ErrorCode } from '@platform/errors';

/** The one place where the error vocabulary meets HTTP. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.ValidationError]: 400,
  [ErrorCode.BadRequest]: 400,
  [ErrorCode.Conflict]: 400,
  [ErrorCode.DomainNotVerified]: 400,
  [ErrorCode.LimitExceeded]: 400,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.PlanRequired]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.InternalError]: 500,
};
