import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { validationErrorFrom } from '@platform/errors';

/** Checks a message's params against its contract class again: the service trusts no caller's shape. */
export function parseParams<T extends object>(type: new () => T, params: unknown): T {
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    throw validationErrorFrom([]);
  }
  const value = plainToInstance(type, params ?? {}, { exposeDefaultValues: true });
  const errors = validateSync(value, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (errors.length > 0) throw validationErrorFrom(errors);
  return value;
}
