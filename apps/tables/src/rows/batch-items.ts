import { AppError, ErrorCode, ValidationDetails } from '@platform/errors';

/** Runs one item's check; a validation error it raises is named by the item: `data.amount` -> `rows[3].data.amount`. */
export function atItem<T>(path: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.ValidationError) {
      const details = error.details as ValidationDetails;
      throw AppError.validation(`${path}.${details.field}`, details.reason);
    }
    throw error;
  }
}
