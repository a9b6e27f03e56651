import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppError } from './app-error';
import { validationErrorFrom } from './validation-errors';

/**
 * Checks a JSON value against its contract class, refusing unknown properties by name; answers the
 * instance, or throws the VALIDATION_ERROR that names the first offending field.
 */
export function validateInput<T extends object>(type: new () => T, value: unknown): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw AppError.validation('body', 'must be a JSON object');
  const instance = plainToInstance(type, value, { exposeDefaultValues: true });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (errors.length > 0) throw validationErrorFrom(errors);
  return instance;
}
